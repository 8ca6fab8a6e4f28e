//! A green-tree builder specialised for one parse.
//!
//! It builds the same rowan tree as `rowan::GreenNodeBuilder` (equal by
//! content; the tests check it) for a fraction of the work:
//! - tokens are shared through a small two-way cache keyed by kind, length
//!   and text: keywords, punctuation, whitespace and the names in use are
//!   found there without a hash table. A token missing from the cache is
//!   allocated anew (so a name that comes back after a long time may exist
//!   twice, which only costs memory), and text seen once (garbage, long
//!   strings) never fills a table;
//! - nodes are shared by the *identity* of their children (rowan's
//!   `NodeCache` hashes their text, and only for nodes of up to three
//!   children): a small direct-mapped cache holds the keys of small nodes
//!   inline, and an index over all the nodes of up to
//!   [`MAX_SHARED_CHILDREN`] children finds the others, so a repeated
//!   subtree is allocated once. A node with a child that was just created
//!   cannot match a node created before it: it is not looked up at all;
//! - the children of open nodes are `u32` ids, not owned `GreenElement`s: a
//!   child is cloned (an atomic increment) only when it goes into a node
//!   that is actually allocated, never when the node is a duplicate.
//!
//! Ids are `index << 3 | flags`. The caller guarantees that the number of
//! nodes and tokens stays below [`MAX_ELEMENTS`], so they fit.

use std::ops::Range;

use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::SyntaxKind;

/// Upper bound on the tokens plus nodes one builder may be given.
pub(crate) const MAX_ELEMENTS: usize = 1 << 28;

/// Nodes with more children are not interned: they are rarely repeated.
const MAX_SHARED_CHILDREN: usize = 16;

/// log2 of the largest number of sets of the token cache (two 16-byte
/// entries each): 128 KB. A parse touches every page of both caches, and
/// a fresh page costs a one-shot `prose check` a fault: with twice as
/// many sets, a check of a 5,600-line program (parsed in two halves, four
/// caches) took 5% more time alternated for 0.04% fewer instructions
/// (docs/performance/peer-2026-12-03b.md).
const TOKEN_CACHE_BITS: u32 = 12;

/// Nodes with at most this many children have their key in the cache.
const INLINE: usize = 6;
/// log2 of the largest number of node cache entries (32 bytes each):
/// 128 KB, for the same reason as [`TOKEN_CACHE_BITS`].
const NODE_CACHE_BITS: u32 = 12;

/// New nodes are added to the index this many at a time.
const PENDING: usize = 512;

/// A token.
const TOKEN: u32 = 0;
/// An interned node.
const SHARED: u32 = 1;
/// A node that is not interned, owned by the builder until its parent takes it.
const UNIQUE: u32 = 2;
/// Flag on a child: the element was created for it (it was not found).
/// A node with such a child cannot match an earlier node (no earlier node
/// has that child).
const NEW: u32 = 4;
/// The bits of an id that are not its index.
const ID_BITS: u32 = 3;

pub(crate) struct TreeBuilder {
    tokens: Vec<GreenToken>,
    /// The last token of each kind and length up to eight bytes
    /// ([`Self::short_slot`]): keywords, punctuation, blanks and many names
    /// are found here, in entries used so often that they stay in the
    /// CPU's first-level cache.
    last_short: Vec<CachedToken>,
    /// `last_short.len() - 1`: 2,047 (32 KiB) for large inputs, 255 (4 KiB,
    /// kinds sharing entries) for small ones, whose tables must be cheap to
    /// clear.
    short_mask: usize,
    /// Recent tokens by their kind and text, most recently used first.
    token_cache: Vec<[CachedToken; 2]>,
    token_cache_bits: u32,
    /// Interned nodes.
    nodes: Vec<GreenNode>,
    node_cache: Vec<CacheEntry>,
    node_cache_bits: u32,
    node_index: Index,
    /// The key of interned node `i` is `keys[key_ends[i]..key_ends[i + 1]]`:
    /// its kind, then its children's ids.
    keys: Vec<u32>,
    key_ends: Vec<u32>,
    /// New nodes not in `node_index` yet: their hash and index.
    pending: Vec<(u64, u32)>,
    /// Scratch space for adding `pending` to `node_index`.
    slots: Vec<u64>,
    /// Nodes that are not interned, until their parent takes them; `free`
    /// lists the slots already taken.
    unique: Vec<Option<GreenNode>>,
    free: Vec<u32>,
    /// Open nodes: their kind and the index of their first child.
    parents: Vec<(SyntaxKind, usize)>,
    children: Vec<u32>,
}

/// A token of the cache.
#[derive(Clone, Copy, Default)]
struct CachedToken {
    /// Its first eight bytes ([`first_word`]).
    word: u64,
    /// `len << 8 | kind`.
    key: u32,
    /// Its index + 1 (0: none).
    index: u32,
}

const _: () = assert!(
    (SyntaxKind::__LAST as usize) < 256,
    "kinds must fit in 8 bits"
);

/// A node of the cache: its key (kind, child count and at most [`INLINE`]
/// child ids) and its index in `nodes`.
#[derive(Clone, Copy, Default)]
#[repr(align(32))]
struct CacheEntry {
    /// `kind | children << 16 | 1 << 31` (0: empty).
    head: u32,
    ids: [u32; INLINE],
    index: u32,
}

impl TreeBuilder {
    /// A builder for about `events` parser events (a capacity hint).
    pub(crate) fn new(events: usize) -> Self {
        // Small inputs get small caches: clearing them must not cost more
        // than parsing.
        let bits =
            |wanted: usize, max: u32| wanted.next_power_of_two().trailing_zeros().clamp(6, max);
        let token_cache_bits = bits(events / 4, TOKEN_CACHE_BITS);
        let node_cache_bits = bits(events / 4, NODE_CACHE_BITS);
        let short_mask = if events >= 1 << 12 { 2047 } else { 255 };
        TreeBuilder {
            tokens: Vec::new(),
            last_short: vec![CachedToken::default(); short_mask + 1],
            short_mask,
            token_cache: vec![[CachedToken::default(); 2]; 1 << token_cache_bits],
            token_cache_bits,
            // Capacities for fairly repetitive code, where about one node in
            // four is new; growing these would copy them.
            nodes: Vec::with_capacity(events / 8),
            node_cache: vec![CacheEntry::default(); 1 << node_cache_bits],
            node_cache_bits,
            node_index: Index::with_capacity(events / 8),
            keys: Vec::with_capacity(events / 2),
            key_ends: {
                let mut ends = Vec::with_capacity(events / 8 + 1);
                ends.push(0);
                ends
            },
            pending: Vec::with_capacity(PENDING),
            slots: Vec::with_capacity(PENDING),
            unique: Vec::new(),
            free: Vec::new(),
            parents: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Adds the token `text[range]`. The commonest case (the same short
    /// token as the last one of its kind) is inlined into the caller.
    #[inline(always)]
    pub(crate) fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) {
        let bytes = text.as_bytes();
        let len = range.len();
        let word = first_word(bytes, range.start, len);
        // Kinds fit in 8 bits (checked at compile time), lengths in the other
        // 24 bits but for huge tokens, which skip the cache.
        let key = (len as u32) << 8 | kind as u32;
        if len <= 8 {
            let last = self.last_short[self.short_slot(kind, len)];
            if last.index != 0 && last.key == key && last.word == word {
                self.children.push((last.index - 1) << ID_BITS | TOKEN);
                return;
            }
        }
        self.cached_token(kind, text, range, word);
    }

    /// The entry of `last_short` for a token of `kind` and `len` (at most
    /// 8).
    #[inline]
    fn short_slot(&self, kind: SyntaxKind, len: usize) -> usize {
        ((kind as u8 as usize) << 3 | (len & 7)) & self.short_mask
    }

    /// [`Self::token`] for a token that is not the last short one of its
    /// kind; `word` is its [`first_word`].
    #[inline(never)]
    fn cached_token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>, word: u64) {
        let bytes = text.as_bytes();
        let len = range.len();
        let key = (len as u32) << 8 | kind as u32;
        let short = len <= 8;
        // The first and the last eight bytes tell most tokens apart.
        let mut hash = mix(key as u64, word);
        if len > 8 {
            hash = mix(hash, first_word(bytes, range.end - 8, 8));
        }
        let set = cache_slot(hash, self.token_cache_bits);
        let tail = bytes.get(range.start + 8..range.end).unwrap_or_default();
        let matches = |t: &CachedToken, this: &Self| {
            t.index != 0
                && t.key == key
                && t.word == word
                && (len <= 8 || this.same_tail(t.index - 1, tail))
        };
        let [first, second] = self.token_cache[set];
        // Keywords, punctuation, whitespace, recent names: found without
        // an index. The set is kept in most-recently-used order.
        let id = if matches(&first, self) {
            (first.index - 1) << ID_BITS | TOKEN
        } else if matches(&second, self) {
            self.token_cache[set] = [second, first];
            (second.index - 1) << ID_BITS | TOKEN
        } else {
            let id = self.new_token(kind, &text[range]);
            if len < 1 << 24 {
                let new = CachedToken {
                    word,
                    key,
                    index: (id >> ID_BITS) + 1,
                };
                self.token_cache[set] = [new, first];
            }
            id
        };
        if short {
            let slot = self.short_slot(kind, len);
            self.last_short[slot] = CachedToken {
                word,
                key,
                index: (id >> ID_BITS) + 1,
            };
        }
        self.children.push(id);
    }

    /// Whether the text of token `index` continues, after its first eight
    /// bytes, with `tail`.
    fn same_tail(&self, index: u32, tail: &[u8]) -> bool {
        let text = self.tokens[index as usize].text().as_bytes();
        text.get(8..).is_some_and(|t| t == tail)
    }

    /// A new token of `kind` and `text` that the caller adds itself, as
    /// often as it likes, with [`Self::push_token`].
    pub(crate) fn make_token(&mut self, kind: SyntaxKind, text: &str) -> u32 {
        // Without `NEW`: nodes with it as a child may have been made before.
        self.new_token(kind, text) & !NEW
    }

    /// Adds the token `id` from [`Self::make_token`].
    #[inline]
    pub(crate) fn push_token(&mut self, id: u32) {
        self.children.push(id);
    }

    fn new_token(&mut self, kind: SyntaxKind, text: &str) -> u32 {
        let i = self.tokens.len() as u32;
        self.tokens.push(GreenToken::new(kind.into(), text));
        i << ID_BITS | TOKEN | NEW
    }

    #[inline]
    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push((kind, self.children.len()));
    }

    /// Ends the node opened last with [`Self::start_node`].
    #[inline]
    pub(crate) fn finish_node(&mut self) {
        if let Some((kind, first)) = self.parents.pop() {
            self.finish_node_at(kind, first);
        }
    }

    /// The number of children added so far, where a node made by
    /// [`Self::finish_node_at`] may start.
    #[inline]
    pub(crate) fn checkpoint(&self) -> usize {
        self.children.len()
    }

    /// Makes a node of `kind` of the children added since
    /// [`Self::checkpoint`] was `first` (nodes already made of some of them
    /// count as one child).
    #[inline(never)]
    pub(crate) fn finish_node_at(&mut self, kind: SyntaxKind, first: usize) {
        let ids = &self.children[first..];
        let mut hash = kind as u64;
        // The union of the children's flags.
        let mut flags = 0;
        // The ids without their `NEW` flags, for the cache.
        let mut key = [0u32; INLINE];
        for (i, &id) in ids.iter().enumerate() {
            flags |= id;
            let id = id & !NEW;
            hash = mix(hash, id as u64);
            if let Some(k) = key.get_mut(i) {
                *k = id;
            }
        }
        if ids.len() > MAX_SHARED_CHILDREN || flags & UNIQUE != 0 {
            self.finish_unique(kind, first);
            return;
        }
        let inline = ids.len() <= INLINE;
        let head = kind as u32 | (ids.len() as u32) << 16 | 1 << 31;
        let cache_slot = cache_slot(hash, self.node_cache_bits);
        // A node with a new child is new itself (no earlier node has that
        // child): no need to look for it.
        if flags & NEW == 0 {
            if inline {
                let entry = &self.node_cache[cache_slot];
                if entry.head == head && entry.ids == key {
                    let id = entry.index << ID_BITS | SHARED;
                    self.children.truncate(first);
                    self.children.push(id);
                    return;
                }
            }
            if let Some(index) = self.find_node(kind, first, hash) {
                if inline {
                    self.node_cache[cache_slot] = CacheEntry {
                        head,
                        ids: key,
                        index,
                    };
                }
                self.children.truncate(first);
                self.children.push(index << ID_BITS | SHARED);
                return;
            }
        }
        let index = self.add_node(kind, first, hash);
        if inline {
            self.node_cache[cache_slot] = CacheEntry {
                head,
                ids: key,
                index,
            };
        }
        self.children.push(index << ID_BITS | SHARED | NEW);
    }

    /// [`Self::finish_node_at`] for a node that is not interned.
    #[cold]
    #[inline(never)]
    fn finish_unique(&mut self, kind: SyntaxKind, first: usize) {
        let node = self.new_node(kind, first);
        let i = match self.free.pop() {
            Some(i) => {
                self.unique[i as usize] = Some(node);
                i
            }
            None => {
                self.unique.push(Some(node));
                self.unique.len() as u32 - 1
            }
        };
        self.children.push(i << ID_BITS | UNIQUE | NEW);
    }

    /// The index of the interned node of `kind` and the children from
    /// `first` on (whose hash is `hash`), if there is one in the index.
    #[inline(never)]
    fn find_node(&self, kind: SyntaxKind, first: usize, hash: u64) -> Option<u32> {
        let (keys, ends, ids) = (&self.keys, &self.key_ends, &self.children[first..]);
        self.node_index.find(hash, |i| {
            let key = &keys[ends[i as usize] as usize..ends[i as usize + 1] as usize];
            key[0] == kind as u32 && same_ids(&key[1..], ids)
        })
    }

    /// Interns a new node of `kind` and the children from `first` on
    /// (whose hash is `hash`), which are consumed; returns its index.
    #[inline(never)]
    fn add_node(&mut self, kind: SyntaxKind, first: usize, hash: u64) -> u32 {
        self.keys.push(kind as u32);
        let ids = &self.children[first..];
        self.keys.extend(ids.iter().map(|&id| id & !NEW));
        self.key_ends.push(self.keys.len() as u32);
        let node = self.new_node(kind, first);
        let index = self.nodes.len() as u32;
        self.nodes.push(node);
        // The index is too large for the CPU caches: insert in batches, in
        // slot order. Until then, the cache finds the small nodes.
        self.pending.push((hash, index));
        if self.pending.len() == PENDING {
            self.flush_pending();
        }
        index
    }

    /// Adds the pending nodes to the index.
    #[inline(never)]
    fn flush_pending(&mut self) {
        let index = &mut self.node_index;
        // Make room first: growing places every slot again.
        index.reserve(self.pending.len(), |i| {
            let key = &self.keys
                [self.key_ends[i as usize] as usize..self.key_ends[i as usize + 1] as usize];
            key[1..]
                .iter()
                .fold(key[0] as u64, |h, &id| mix(h, id as u64))
        });
        index.insert_all(&self.pending, &mut self.slots);
        self.pending.clear();
    }

    /// Allocates a node of `children[first..]`, which are consumed.
    fn new_node(&mut self, kind: SyntaxKind, first: usize) -> GreenNode {
        let TreeBuilder {
            tokens,
            nodes,
            unique,
            free,
            children,
            ..
        } = self;
        let node = GreenNode::new(
            kind.into(),
            children[first..].iter().map(|&id| {
                let i = (id >> ID_BITS) as usize;
                match id & 3 {
                    TOKEN => NodeOrToken::Token(tokens[i].clone()),
                    SHARED => NodeOrToken::Node(nodes[i].clone()),
                    _ => {
                        free.push(i as u32);
                        // A unique node has exactly one parent, so it is
                        // always still there.
                        NodeOrToken::Node(unique[i].take().unwrap_or_else(empty_error))
                    }
                }
            }),
        );
        children.truncate(first);
        node
    }

    /// The root: the one element left once every node is finished.
    pub(crate) fn finish(mut self) -> GreenNode {
        let id = self.children.pop().unwrap_or(TOKEN);
        let i = (id >> ID_BITS) as usize;
        match id & 3 {
            SHARED if i < self.nodes.len() => Some(self.nodes.swap_remove(i)),
            UNIQUE => self.unique.get_mut(i).and_then(Option::take),
            _ => None,
        }
        // `build_tree` always finishes exactly one root node.
        .unwrap_or_else(empty_error)
    }
}

fn empty_error() -> GreenNode {
    GreenNode::new(SyntaxKind::ERROR.into(), [])
}

/// The first eight bytes of `bytes[start..start + len]`, little-endian and
/// zero-padded: most tokens fit.
#[inline]
fn first_word(bytes: &[u8], start: usize, len: usize) -> u64 {
    let n = len.min(8);
    match bytes.get(start..start + 8) {
        Some(b) => u64::from_le_bytes(b.try_into().unwrap_or_default()) & LOW_BYTES[n],
        // Near the end of the text.
        None => bytes[start..start + n]
            .iter()
            .rev()
            .fold(0, |word, &b| word << 8 | b as u64),
    }
}

/// `LOW_BYTES[n]` keeps the low `n` bytes of a word.
const LOW_BYTES: [u64; 9] = {
    let mut masks = [u64::MAX; 9];
    let mut n = 0;
    while n < 8 {
        masks[n] = (1 << (8 * n)) - 1;
        n += 1;
    }
    masks
};

#[inline]
fn same_ids(key: &[u32], ids: &[u32]) -> bool {
    key.len() == ids.len() && key.iter().zip(ids).all(|(&k, &id)| k == id & !NEW)
}

/// A hash index over a dense table of items: open addressing, linear
/// probing, 4 bytes a slot. A slot holds 8 bits of the item's hash (its
/// *tag*) and `index + 1` in 24 bits (0: empty); items past 2^24 - 2 are
/// not indexed (they are then not shared, which is never wrong).
struct Index {
    slots: Vec<u32>,
    len: usize,
}

const INDEX_BITS: u32 = 24;
/// The parts of the index a batch of inserts is ordered by (a power of 2).
const BUCKETS: usize = 256;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;

impl Index {
    fn with_capacity(items: usize) -> Self {
        Index {
            slots: vec![0; (items * 2).next_power_of_two().max(64)],
            len: 0,
        }
    }

    #[inline]
    fn tag(hash: u64) -> u32 {
        (hash >> 24) as u32 & 0xff
    }

    #[inline]
    fn position(&self, hash: u64) -> usize {
        (hash >> 32) as usize & (self.slots.len() - 1)
    }

    #[inline]
    fn find(&self, hash: u64, eq: impl Fn(u32) -> bool) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let tag = Self::tag(hash);
        let mut i = self.position(hash);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            let index = (slot & INDEX_MASK) - 1;
            if slot >> INDEX_BITS == tag && eq(index) {
                return Some(index);
            }
            i = (i + 1) & mask;
        }
    }

    /// Makes room for `more` items.
    fn reserve(&mut self, more: usize, rehash: impl Fn(u32) -> u64) {
        // Keep the load factor at most 1/2.
        if (self.len + more) * 2 > self.slots.len() {
            let len = ((self.len + more) * 2).next_power_of_two();
            let old = std::mem::replace(&mut self.slots, vec![0; len]);
            for slot in old.into_iter().filter(|&s| s != 0) {
                self.place(rehash((slot & INDEX_MASK) - 1), slot);
            }
        }
    }

    /// Adds items known to be absent, given by their hash and index, once
    /// there is room for them. They are placed in the order of their
    /// positions' top bits (the table is too large for the CPU caches: each
    /// of those [`BUCKETS`] parts of it is touched once, not at random);
    /// `buffer` is scratch space for that.
    fn insert_all(&mut self, items: &[(u64, u32)], buffer: &mut Vec<u64>) {
        let shift = self
            .slots
            .len()
            .trailing_zeros()
            .saturating_sub(BUCKETS.trailing_zeros());
        // Each item as its position above its slot, in buckets by the top
        // bits of its position (a counting sort).
        let item = |&(hash, index): &(u64, u32)| {
            let slot = Self::tag(hash) << INDEX_BITS | (index + 1);
            (self.position(hash) as u64) << 32 | slot as u64
        };
        let bucket = |item: u64| (item >> (32 + shift)) as usize;
        let indexed = |&&(_, index): &&(u64, u32)| index < INDEX_MASK;
        let mut ends = [0u32; BUCKETS];
        for it in items.iter().filter(indexed) {
            ends[bucket(item(it))] += 1;
        }
        let mut sum = 0;
        for end in &mut ends {
            sum += *end;
            *end = sum;
        }
        buffer.clear();
        buffer.resize(sum as usize, 0);
        // Filled from the end of each bucket down.
        for it in items.iter().filter(indexed) {
            let item = item(it);
            let end = &mut ends[bucket(item)];
            *end -= 1;
            buffer[*end as usize] = item;
        }
        self.len += buffer.len();
        for &item in buffer.iter() {
            self.place_at((item >> 32) as usize, item as u32);
        }
    }

    #[inline]
    fn place(&mut self, hash: u64, slot: u32) {
        self.place_at(self.position(hash), slot);
    }

    /// Puts `slot` in the first free slot from position `i` on.
    #[inline]
    fn place_at(&mut self, mut i: usize, slot: u32) {
        let mask = self.slots.len() - 1;
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

/// The entry of a cache of `2^bits` entries for `hash`.
#[inline]
fn cache_slot(hash: u64, bits: u32) -> usize {
    (hash >> (64 - bits)) as usize
}

#[inline]
fn mix(h: u64, word: u64) -> u64 {
    (h.rotate_left(26) ^ word).wrapping_mul(K)
}
