// Jest transform for the ESM-only packages (see jest.config.js). Babel rewrites `import` and
// `import()` to `require` and `import.meta.url` to a file URL. The caller says it supports no
// ESM at all: babel-jest would claim dynamic import support, leaving `import()` calls that
// Jest cannot run without --experimental-vm-modules. A module that defines its own `require`
// via createRequire would shadow the one Babel needs, so that line is dropped (CommonJS
// already has a working `require`).
const babel = require('@babel/core');
const crypto = require('node:crypto');

const OWN_REQUIRE = /^const require = createRequire\(import\.meta\.url\);$/m;
const OPTIONS = {
  babelrc: false,
  configFile: false,
  sourceMaps: 'inline',
  caller: { name: 'brainql-jest', supportsStaticESM: false, supportsDynamicImport: false },
  plugins: [
    'babel-plugin-transform-import-meta',
    '@babel/plugin-transform-dynamic-import',
    '@babel/plugin-transform-modules-commonjs',
  ],
};

module.exports = {
  getCacheKey: (source, filename) =>
    crypto.createHash('sha1').update('v2').update(filename).update(source).digest('hex'),
  process: (source, filename) => {
    const result = babel.transformSync(source.replace(OWN_REQUIRE, ''), { ...OPTIONS, filename });
    return { code: result.code };
  },
};
