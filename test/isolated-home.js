/**
 * Every test file runs with a fresh temporary home folder: the configuration's default
 * CACHE_DIR (~/.cache/brainql) then never touches the real user's cache, and no two test files
 * share an index file. Jest gives each file a copy of process.env that os.homedir() and
 * os.tmpdir() do not read, so both are replaced too; child processes get HOME and TMPDIR from
 * that copy. Both live in the file's own folder, which test/environment.js removes at the end.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = globalThis.__BRAINQL_TEST_ROOT__;
const home = path.join(root, 'home');
const tmp = path.join(root, 'tmp');
fs.mkdirSync(home);
fs.mkdirSync(tmp);
process.env.HOME = home;
process.env.TMPDIR = tmp;
delete process.env.XDG_CACHE_HOME;
os.homedir = () => home;
os.tmpdir = () => tmp;
