// Preloaded (`--require`, through NODE_OPTIONS) into every process of one Node line's test run
// (scripts/test.mjs, "Other Node lines"): better-sqlite3 loads the binary compiled for that Node,
// named by TEST_BETTER_SQLITE3_BINARY, instead of the machine's own in node_modules. Nothing in
// node_modules changes, so the lines and the machine's own suites can run side by side.
const Module = require('node:module');
const path = require('node:path');

const binary = process.env.TEST_BETTER_SQLITE3_BINARY;
if (binary) {
  const load = Module._load;
  const fromBetterSqlite3 = (parent) =>
    parent?.filename?.split(path.sep).includes('better-sqlite3') ?? false;
  Module._load = function loadWithLineBinary(request, parent, isMain) {
    // better-sqlite3's lib/database.js: require('bindings')('better_sqlite3.node').
    if (request === 'bindings' && fromBetterSqlite3(parent))
      return () => load.call(Module, binary, parent, false);
    return load.call(this, request, parent, isMain);
  };
}
