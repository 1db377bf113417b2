/**
 * The tests' environment: Node's, plus one temporary folder per test file that holds everything
 * the file creates (its HOME, and every os.tmpdir() folder, also of child processes through
 * TMPDIR). Teardown removes it after the file's last hook, so runs leave nothing under /tmp:
 * before, every run left a few hundred folders (about 1.5 GB after a day of CI).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

// isolated-home.js replaces os.tmpdir in the worker's one `os` module, which every later test
// file of the worker shares: keep the original to make each file's folder beside the others.
const ORIGINAL_TMPDIR = Symbol.for('brainql.test.os.tmpdir');
os[ORIGINAL_TMPDIR] ??= os.tmpdir;

class IsolatedEnvironment extends TestEnvironment {
  // The constructor, not setup(): Jest runs the setupFiles (isolated-home.js) before setup().
  constructor(config, context) {
    super(config, context);
    this.root = fs.mkdtempSync(path.join(os[ORIGINAL_TMPDIR](), 'brainql-test-'));
    this.global.__BRAINQL_TEST_ROOT__ = this.root;
  }

  async teardown() {
    // Servers a file started may still be writing their cache for a moment.
    fs.rmSync(this.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    await super.teardown();
  }
}

module.exports = IsolatedEnvironment;
