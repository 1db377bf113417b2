/**
 * Every test file runs with a fresh temporary home folder: the configuration's default
 * CACHE_DIR (~/.cache/brainql) then never touches the real user's cache, and no two test files
 * share an index file. Jest gives each file a copy of process.env that os.homedir() does not
 * read, so homedir is replaced too; child processes get HOME from that copy.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-test-home-'));
process.env.HOME = home;
delete process.env.XDG_CACHE_HOME;
os.homedir = () => home;
