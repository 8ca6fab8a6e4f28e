// Builds the .vsix: copies the grammars and the prose-lsp binary into the
// extension, bundles it with esbuild, and packages it with @vscode/vsce for the
// platform it runs on (the binary is that platform's).
//
//   node scripts/package.mjs [--server PATH] [--out FILE]
//
// The server is PATH, else $PROSE_LSP_BINARY, else target/release/prose-lsp,
// else target/debug/prose-lsp of the repository.

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const repo = path.resolve(here, "..", "..");
const exe = process.platform === "win32" ? ".exe" : "";

function arg(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function serverBinary() {
  const candidates = [
    arg("--server"),
    process.env.PROSE_LSP_BINARY,
    path.join(repo, "target", "release", `prose-lsp${exe}`),
    path.join(repo, "target", "debug", `prose-lsp${exe}`),
  ].filter(Boolean);
  for (const c of candidates) {
    if (fs.existsSync(c)) {
      return path.resolve(c);
    }
  }
  throw new Error(`no prose-lsp binary: build it (cargo build --release -p prose-lsp) or pass --server PATH. Looked at ${candidates.join(", ")}`);
}

/** vsce's name for this platform. */
function target() {
  const os = { linux: "linux", darwin: "darwin", win32: "win32" }[process.platform];
  const arch = { x64: "x64", arm64: "arm64", arm: "armhf" }[process.arch];
  if (!os || !arch) {
    throw new Error(`no VS Code target for ${process.platform}-${process.arch}`);
  }
  return `${os}-${arch}`;
}

const syntaxes = path.join(here, "syntaxes");
fs.rmSync(syntaxes, { recursive: true, force: true });
fs.mkdirSync(syntaxes);
for (const f of fs.readdirSync(path.join(repo, "syntaxes"))) {
  if (f.endsWith(".tmLanguage.json")) {
    fs.copyFileSync(path.join(repo, "syntaxes", f), path.join(syntaxes, f));
  }
}

const server = path.join(here, "server");
fs.rmSync(server, { recursive: true, force: true });
fs.mkdirSync(server);
const binary = serverBinary();
fs.copyFileSync(binary, path.join(server, `prose-lsp${exe}`));
fs.chmodSync(path.join(server, `prose-lsp${exe}`), 0o755);

const run = (cmd, args) => execFileSync(cmd, args, { cwd: here, stdio: "inherit" });
run(process.execPath, ["esbuild.mjs", "--production"]);
const version = JSON.parse(fs.readFileSync(path.join(here, "package.json"), "utf8")).version;
const out = arg("--out") ?? path.join(here, `prose-lsp-${target()}-${version}.vsix`);
const vsce = path.join(here, "node_modules", "@vscode", "vsce", "vsce");
run(process.execPath, [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--no-rewrite-relative-links", "--target", target(), "--out", out]);
console.log(`packaged ${out} with the server ${binary}`);
