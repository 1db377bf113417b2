/**
 * Every test file runs with HOME set to a fresh temporary folder: the configuration's default
 * CACHE_DIR (~/.cache/brainql) then never touches the real user's cache, and no two test files
 * share an index file.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'brainql-test-home-'));
delete process.env.XDG_CACHE_HOME;
