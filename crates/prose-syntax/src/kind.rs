//! `SyntaxKind`: every token and node kind of the OpenProse tree.
//!
//! Tokens come first, then nodes. The enum is `#[repr(u16)]` and converted
//! back from rowan's raw kind with a checked table lookup (no `unsafe`).

/// The kind of a token or node in the OpenProse syntax tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u16)]
#[allow(
    non_camel_case_types,
    clippy::upper_case_acronyms,
    clippy::manual_non_exhaustive
)]
pub enum SyntaxKind {
    // ---- trivia -------------------------------------------------------
    /// Spaces, tabs, form feeds, a BOM, and newlines that do not end a
    /// logical line (blank lines, newlines inside brackets).
    WHITESPACE = 0,
    /// `# ...` up to (not including) the end of the line.
    COMMENT,

    // ---- layout -------------------------------------------------------
    /// A newline (`\n` or `\r\n`) that ends a logical line.
    NEWLINE,
    /// Virtual, zero-width: the indentation grew. Never stored in the tree.
    INDENT,
    /// Virtual, zero-width: the indentation shrank. Never stored in the tree.
    DEDENT,

    // ---- literals and names -------------------------------------------
    IDENT,
    NUMBER,
    /// A whole discretion condition: `**text**` or `***text***`.
    DISCRETION,

    // ---- string pieces (a string literal is a STRING node of these) ----
    /// `"` or `"""` opening a string.
    STRING_OPEN,
    /// `"` or `"""` closing a string.
    STRING_CLOSE,
    /// Literal text inside a string.
    STRING_TEXT,
    /// A backslash escape inside a string (`\n`, `\"`, `\{`, ...).
    STRING_ESCAPE,
    /// `{` starting an interpolation.
    INTERP_OPEN,
    /// `}` ending an interpolation.
    INTERP_CLOSE,

    // ---- punctuation and operators -----------------------------------
    COLON,
    COMMA,
    DOT,
    EQ,
    L_PAREN,
    R_PAREN,
    L_BRACK,
    R_BRACK,
    L_BRACE,
    R_BRACE,
    ARROW,
    PIPE,
    PLUS,
    MINUS,
    STAR,
    SLASH,
    PERCENT,
    EQ2,
    NEQ,
    LT,
    LTEQ,
    GT,
    GTEQ,
    AMP2,
    PIPE2,
    BANG,
    QUESTION,
    ELLIPSIS,

    // ---- keywords -----------------------------------------------------
    USE_KW,
    IMPORT_KW,
    FROM_KW,
    AS_KW,
    INPUT_KW,
    OUTPUT_KW,
    AGENT_KW,
    SESSION_KW,
    RESUME_KW,
    LET_KW,
    CONST_KW,
    DO_KW,
    BLOCK_KW,
    PARALLEL_KW,
    FOR_KW,
    IN_KW,
    REPEAT_KW,
    LOOP_KW,
    UNTIL_KW,
    WHILE_KW,
    TRY_KW,
    CATCH_KW,
    FINALLY_KW,
    THROW_KW,
    CHOICE_KW,
    OPTION_KW,
    IF_KW,
    ELIF_KW,
    ELSE_KW,
    MAP_KW,
    FILTER_KW,
    REDUCE_KW,
    PMAP_KW,
    TRUE_KW,
    FALSE_KW,
    NULL_KW,
    AND_KW,
    OR_KW,
    NOT_KW,
    IS_KW,
    RETURN_KW,
    BREAK_KW,
    CONTINUE_KW,
    ASSERT_KW,

    /// A character or sequence the lexer does not recognise.
    ERROR_TOKEN,
    /// End of input (only seen by the parser, never stored in the tree).
    EOF,

    // ---- nodes --------------------------------------------------------
    SOURCE_FILE,
    /// `NEWLINE INDENT statement* DEDENT`: an indented body.
    BLOCK,
    ERROR,

    // statements
    USE_STMT,
    IMPORT_STMT,
    INPUT_DECL,
    OUTPUT_DECL,
    AGENT_DEF,
    BLOCK_DEF,
    LET_STMT,
    CONST_STMT,
    ASSIGN_STMT,
    EXPR_STMT,
    TRY_STMT,
    CATCH_CLAUSE,
    FINALLY_CLAUSE,
    THROW_STMT,
    CHOICE_STMT,
    OPTION_CLAUSE,
    IF_STMT,
    ELIF_CLAUSE,
    ELSE_CLAUSE,
    RETURN_STMT,
    BREAK_STMT,
    CONTINUE_STMT,
    ASSERT_STMT,

    // definitions and their parts
    NAME,
    NAME_REF,
    PARAM_LIST,
    PARAM,
    /// An indented list of `key: value` properties (agent, session, permissions).
    PROPERTY_BLOCK,
    PROPERTY,
    /// The value of a property that is itself a nested property block.
    PROPERTY_LIST_INLINE,

    // expressions
    SESSION_EXPR,
    RESUME_EXPR,
    DO_EXPR,
    DO_CALL,
    ARG_LIST,
    ARG,
    ARROW_EXPR,
    PARALLEL_EXPR,
    MODIFIER_LIST,
    MODIFIER,
    FOR_EXPR,
    REPEAT_EXPR,
    LOOP_EXPR,
    PIPE_EXPR,
    PIPE_OP,
    CALL_EXPR,
    FIELD_EXPR,
    ARRAY_EXPR,
    OBJECT_EXPR,
    OBJECT_FIELD,
    DESTRUCTURE_PAT,
    BINARY_EXPR,
    PREFIX_EXPR,
    TERNARY_EXPR,
    PAREN_EXPR,
    LITERAL,
    STRING,
    INTERPOLATION,
    DISCRETION_EXPR,

    #[doc(hidden)]
    __LAST,
}

use SyntaxKind::*;

const ALL: &[SyntaxKind] = &[
    WHITESPACE,
    COMMENT,
    NEWLINE,
    INDENT,
    DEDENT,
    IDENT,
    NUMBER,
    DISCRETION,
    STRING_OPEN,
    STRING_CLOSE,
    STRING_TEXT,
    STRING_ESCAPE,
    INTERP_OPEN,
    INTERP_CLOSE,
    COLON,
    COMMA,
    DOT,
    EQ,
    L_PAREN,
    R_PAREN,
    L_BRACK,
    R_BRACK,
    L_BRACE,
    R_BRACE,
    ARROW,
    PIPE,
    PLUS,
    MINUS,
    STAR,
    SLASH,
    PERCENT,
    EQ2,
    NEQ,
    LT,
    LTEQ,
    GT,
    GTEQ,
    AMP2,
    PIPE2,
    BANG,
    QUESTION,
    ELLIPSIS,
    USE_KW,
    IMPORT_KW,
    FROM_KW,
    AS_KW,
    INPUT_KW,
    OUTPUT_KW,
    AGENT_KW,
    SESSION_KW,
    RESUME_KW,
    LET_KW,
    CONST_KW,
    DO_KW,
    BLOCK_KW,
    PARALLEL_KW,
    FOR_KW,
    IN_KW,
    REPEAT_KW,
    LOOP_KW,
    UNTIL_KW,
    WHILE_KW,
    TRY_KW,
    CATCH_KW,
    FINALLY_KW,
    THROW_KW,
    CHOICE_KW,
    OPTION_KW,
    IF_KW,
    ELIF_KW,
    ELSE_KW,
    MAP_KW,
    FILTER_KW,
    REDUCE_KW,
    PMAP_KW,
    TRUE_KW,
    FALSE_KW,
    NULL_KW,
    AND_KW,
    OR_KW,
    NOT_KW,
    IS_KW,
    RETURN_KW,
    BREAK_KW,
    CONTINUE_KW,
    ASSERT_KW,
    ERROR_TOKEN,
    EOF,
    SOURCE_FILE,
    BLOCK,
    ERROR,
    USE_STMT,
    IMPORT_STMT,
    INPUT_DECL,
    OUTPUT_DECL,
    AGENT_DEF,
    BLOCK_DEF,
    LET_STMT,
    CONST_STMT,
    ASSIGN_STMT,
    EXPR_STMT,
    TRY_STMT,
    CATCH_CLAUSE,
    FINALLY_CLAUSE,
    THROW_STMT,
    CHOICE_STMT,
    OPTION_CLAUSE,
    IF_STMT,
    ELIF_CLAUSE,
    ELSE_CLAUSE,
    RETURN_STMT,
    BREAK_STMT,
    CONTINUE_STMT,
    ASSERT_STMT,
    NAME,
    NAME_REF,
    PARAM_LIST,
    PARAM,
    PROPERTY_BLOCK,
    PROPERTY,
    PROPERTY_LIST_INLINE,
    SESSION_EXPR,
    RESUME_EXPR,
    DO_EXPR,
    DO_CALL,
    ARG_LIST,
    ARG,
    ARROW_EXPR,
    PARALLEL_EXPR,
    MODIFIER_LIST,
    MODIFIER,
    FOR_EXPR,
    REPEAT_EXPR,
    LOOP_EXPR,
    PIPE_EXPR,
    PIPE_OP,
    CALL_EXPR,
    FIELD_EXPR,
    ARRAY_EXPR,
    OBJECT_EXPR,
    OBJECT_FIELD,
    DESTRUCTURE_PAT,
    BINARY_EXPR,
    PREFIX_EXPR,
    TERNARY_EXPR,
    PAREN_EXPR,
    LITERAL,
    STRING,
    INTERPOLATION,
    DISCRETION_EXPR,
];

impl SyntaxKind {
    /// Converts a raw rowan kind back, or `None` when out of range.
    pub fn from_raw(raw: u16) -> Option<SyntaxKind> {
        ALL.get(raw as usize).copied()
    }

    pub fn is_trivia(self) -> bool {
        matches!(self, WHITESPACE | COMMENT)
    }

    pub fn is_keyword(self) -> bool {
        (USE_KW as u16..=ASSERT_KW as u16).contains(&(self as u16))
    }

    /// Keywords that only mean something in a particular position and may
    /// otherwise be used as names (`let map = ...`, `for item in items`).
    pub fn is_contextual_keyword(self) -> bool {
        matches!(
            self,
            FROM_KW
                | MAP_KW
                | FILTER_KW
                | REDUCE_KW
                | PMAP_KW
                | UNTIL_KW
                | WHILE_KW
                | OPTION_KW
                | INPUT_KW
                | OUTPUT_KW
                | BLOCK_KW
                | AGENT_KW
                | SESSION_KW
                | RESUME_KW
                | IMPORT_KW
                | RETURN_KW
                | BREAK_KW
                | CONTINUE_KW
                | ASSERT_KW
                | IN_KW
                | AND_KW
                | OR_KW
                | NOT_KW
                | IS_KW
        )
    }

    /// The keyword kind for `text`, if it is one.
    pub fn from_keyword(text: &str) -> Option<SyntaxKind> {
        let kind = match text {
            "use" => USE_KW,
            "import" => IMPORT_KW,
            "from" => FROM_KW,
            "as" => AS_KW,
            "input" => INPUT_KW,
            "output" => OUTPUT_KW,
            "agent" => AGENT_KW,
            "session" => SESSION_KW,
            "resume" => RESUME_KW,
            "let" => LET_KW,
            "const" => CONST_KW,
            "do" => DO_KW,
            "block" => BLOCK_KW,
            "parallel" => PARALLEL_KW,
            "for" => FOR_KW,
            "in" => IN_KW,
            "repeat" => REPEAT_KW,
            "loop" => LOOP_KW,
            "until" => UNTIL_KW,
            "while" => WHILE_KW,
            "try" => TRY_KW,
            "catch" => CATCH_KW,
            "finally" => FINALLY_KW,
            "throw" => THROW_KW,
            "choice" => CHOICE_KW,
            "option" => OPTION_KW,
            "if" => IF_KW,
            "elif" => ELIF_KW,
            "else" => ELSE_KW,
            "map" => MAP_KW,
            "filter" => FILTER_KW,
            "reduce" => REDUCE_KW,
            "pmap" => PMAP_KW,
            "true" => TRUE_KW,
            "false" => FALSE_KW,
            "null" => NULL_KW,
            "and" => AND_KW,
            "or" => OR_KW,
            "not" => NOT_KW,
            "is" => IS_KW,
            "return" => RETURN_KW,
            "break" => BREAK_KW,
            "continue" => CONTINUE_KW,
            "assert" => ASSERT_KW,
            _ => return None,
        };
        Some(kind)
    }

    /// A short human name for messages: `` `session` ``, `a string`, ...
    pub fn describe(self) -> &'static str {
        match self {
            WHITESPACE => "whitespace",
            COMMENT => "a comment",
            NEWLINE => "end of line",
            INDENT => "an indented block",
            DEDENT => "end of block",
            IDENT => "a name",
            NUMBER => "a number",
            DISCRETION => "a discretion condition",
            STRING_OPEN | STRING_CLOSE | STRING_TEXT | STRING_ESCAPE | STRING => "a string",
            INTERP_OPEN => "`{`",
            INTERP_CLOSE => "`}`",
            COLON => "`:`",
            COMMA => "`,`",
            DOT => "`.`",
            EQ => "`=`",
            L_PAREN => "`(`",
            R_PAREN => "`)`",
            L_BRACK => "`[`",
            R_BRACK => "`]`",
            L_BRACE => "`{`",
            R_BRACE => "`}`",
            ARROW => "`->`",
            PIPE => "`|`",
            PLUS => "`+`",
            MINUS => "`-`",
            STAR => "`*`",
            SLASH => "`/`",
            PERCENT => "`%`",
            EQ2 => "`==`",
            NEQ => "`!=`",
            LT => "`<`",
            LTEQ => "`<=`",
            GT => "`>`",
            GTEQ => "`>=`",
            AMP2 => "`&&`",
            PIPE2 => "`||`",
            BANG => "`!`",
            QUESTION => "`?`",
            ELLIPSIS => "`...`",
            ERROR_TOKEN => "an unrecognised character",
            EOF => "end of file",
            k if k.is_keyword() => k.keyword_text(),
            _ => "a syntax node",
        }
    }

    fn keyword_text(self) -> &'static str {
        match self {
            USE_KW => "`use`",
            IMPORT_KW => "`import`",
            FROM_KW => "`from`",
            AS_KW => "`as`",
            INPUT_KW => "`input`",
            OUTPUT_KW => "`output`",
            AGENT_KW => "`agent`",
            SESSION_KW => "`session`",
            RESUME_KW => "`resume`",
            LET_KW => "`let`",
            CONST_KW => "`const`",
            DO_KW => "`do`",
            BLOCK_KW => "`block`",
            PARALLEL_KW => "`parallel`",
            FOR_KW => "`for`",
            IN_KW => "`in`",
            REPEAT_KW => "`repeat`",
            LOOP_KW => "`loop`",
            UNTIL_KW => "`until`",
            WHILE_KW => "`while`",
            TRY_KW => "`try`",
            CATCH_KW => "`catch`",
            FINALLY_KW => "`finally`",
            THROW_KW => "`throw`",
            CHOICE_KW => "`choice`",
            OPTION_KW => "`option`",
            IF_KW => "`if`",
            ELIF_KW => "`elif`",
            ELSE_KW => "`else`",
            MAP_KW => "`map`",
            FILTER_KW => "`filter`",
            REDUCE_KW => "`reduce`",
            PMAP_KW => "`pmap`",
            TRUE_KW => "`true`",
            FALSE_KW => "`false`",
            NULL_KW => "`null`",
            AND_KW => "`and`",
            OR_KW => "`or`",
            NOT_KW => "`not`",
            IS_KW => "`is`",
            RETURN_KW => "`return`",
            BREAK_KW => "`break`",
            CONTINUE_KW => "`continue`",
            ASSERT_KW => "`assert`",
            _ => "a keyword",
        }
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> Self {
        rowan::SyntaxKind(kind as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_discriminants() {
        assert_eq!(ALL.len(), __LAST as usize);
        for (i, k) in ALL.iter().enumerate() {
            assert_eq!(*k as usize, i, "{k:?} is out of order in ALL");
        }
        assert_eq!(SyntaxKind::from_raw(__LAST as u16), None);
    }

    #[test]
    fn keywords_round_trip() {
        for k in ALL.iter().copied().filter(|k| k.is_keyword()) {
            let text = k.keyword_text().trim_matches('`');
            assert_eq!(SyntaxKind::from_keyword(text), Some(k));
        }
    }
}
