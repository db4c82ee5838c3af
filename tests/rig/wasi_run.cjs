// Runs a wasm32-wasip1 command (an example built with `--target wasm32-wasip1`) in
// Node's V8 through WASI. The Proxy-Wasm imports the filter crate declares are stubbed:
// the core under test never calls them. Used by `cargo xtask bench-v8`, and as the
// cargo runner of the unit tests built for wasm32-wasip1 (`cargo xtask test`).
const { WASI } = require('node:wasi');
const fs = require('node:fs');

const wasi = new WASI({ version: 'preview1', args: process.argv.slice(2), env: {}, returnOnExit: true });
const wasm = new WebAssembly.Module(fs.readFileSync(process.argv[2]));
const imports = wasi.getImportObject();
imports.env = {};
for (const imp of WebAssembly.Module.imports(wasm)) {
  if (imp.module === 'env') imports.env[imp.name] = () => 0;
}
const instance = new WebAssembly.Instance(wasm, imports);
// Node 20 may collect the WASI object while `start` runs (nothing refers to it after
// the call began): a garbage collection during a `fd_write` then destroys the mutex
// that call holds, and Node aborts with SIGABRT and no message. A global keeps it alive.
globalThis.veilWasi = wasi;
// `cargo xtask test` also runs Node with `--single-threaded-gc`: with the concurrent
// collector, a long run of unit tests died with SIGSEGV inside `start` (xtask's
// `unit_tests_in_v8`).
// The crate is a reactor too (`_initialize`); start the command's `_start`.
process.exitCode = wasi.start({ exports: { memory: instance.exports.memory, _start: instance.exports._start } });
