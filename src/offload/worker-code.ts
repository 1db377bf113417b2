import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Loads a worker module in a worker thread: the compiled .js in dist, or the .ts source when
 * this file runs as TypeScript (ts-jest's tests, the bench), as the session pool does
 * (src/index/session-pool.ts, whose copy is private to the index): the code is compiled here
 * once and shipped, so no worker loads a TypeScript compiler of its own (seconds of CPU each).
 * The module's `serve(port, options)` then answers the worker's messages.
 */
export const BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.code) {
  const code = workerData.code;
  require.extensions['.ts'] = (m, file) => {
    if (code[file] === undefined) throw new Error('no compiled code for ' + file);
    m._compile(code[file], file);
  };
} else if (workerData.module.endsWith('.ts')) require(workerData.tsNode);
require(workerData.module).serve(parentPort, workerData.options);
`;

interface TsNodeService {
  compile(code: string, fileName: string): string;
}

const shipped = new Map<string, Record<string, string> | null>();

/** What the bootstrap needs to load `base` (a path without extension, beside the caller). */
export function workerData(base: string, options: unknown): Record<string, unknown> {
  const ts = __filename.endsWith('.ts');
  const module = require.resolve(`${base}${ts ? '.ts' : '.js'}`);
  return {
    module,
    code: ts ? compiledCode(module) : null,
    tsNode: ts ? require.resolve('ts-node/register/transpile-only') : '',
    options,
  };
}

/**
 * `module` and the TypeScript files it imports, compiled by this process's ts-node when it
 * runs under one, else by TypeScript's transpiler as tsconfig.json says. null: no TypeScript
 * here (the worker then registers ts-node itself).
 */
function compiledCode(module: string): Record<string, string> | null {
  const known = shipped.get(module);
  if (known !== undefined) return known;
  let code: Record<string, string> | null = {};
  try {
    const compile = compiler();
    const files = code;
    const visit = (file: string) => {
      if (file in files) return;
      const source = fs.readFileSync(file, 'utf8');
      files[file] = compile(source, file);
      for (const m of source.matchAll(IMPORTS)) {
        const to = resolveTs(path.dirname(file), m[1] ?? m[2]);
        if (to) visit(to);
      }
    };
    visit(module);
  } catch {
    code = null;
  }
  shipped.set(module, code);
  return code;
}

/** Relative module names in import, export … from and require() statements. */
const IMPORTS = /\bfrom\s*'(\.{1,2}\/[^']+)'|\brequire\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

function resolveTs(dir: string, name: string): string | null {
  for (const f of [`${name}.ts`, `${name}/index.ts`]) {
    const file = path.resolve(dir, f);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

function compiler(): (source: string, file: string) => string {
  const tsNode = (process as unknown as Record<symbol, TsNodeService | undefined>)[
    Symbol.for('ts-node.register.instance')
  ];
  if (tsNode) return (source, file) => tsNode.compile(source, file);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  const config = ts.findConfigFile(__dirname, (f) => ts.sys.fileExists(f));
  if (!config) throw new Error('no tsconfig.json');
  const read = ts.readConfigFile(config, (f) => ts.sys.readFile(f));
  const { options } = ts.convertCompilerOptionsFromJson(
    (read.config as { compilerOptions?: object }).compilerOptions ?? {},
    path.dirname(config),
  );
  const compilerOptions = { ...options, sourceMap: false, inlineSourceMap: true };
  return (source, file) =>
    ts.transpileModule(source, { compilerOptions, fileName: file }).outputText;
}
