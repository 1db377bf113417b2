import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * How the index's worker threads (SessionPool's session workers, the trigram engine's segment
 * builder) load their TypeScript-or-JavaScript module: the compiled .js in dist, or the .ts
 * source when the parent runs as TypeScript. Under ts-node (the bench) or ts-jest, the parent
 * compiles the module and the files it imports and ships the code (`code`): a worker then
 * starts in a fraction of the time and memory, without a TypeScript compiler of its own (a
 * second of CPU each, inside the build it is part of, and a worker still loading it when a
 * test file ends holds up the test process's exit). Failing that, it registers ts-node.
 */
export const WORKER_PRELUDE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.code) {
  const code = workerData.code;
  require.extensions['.ts'] = (m, file) => {
    if (code[file] === undefined) throw new Error('no compiled code for ' + file);
    m._compile(code[file], file);
  };
} else if (workerData.module.endsWith('.ts')) require(workerData.tsNode);
`;

/** The workerData WORKER_PRELUDE reads, for `module` (`ts`: the parent runs as TypeScript). */
export function workerCode(
  module: string,
  ts: boolean,
): { module: string; code: Record<string, string> | null; tsNode: string } {
  return {
    module,
    code: ts ? compiledCode(module) : null,
    tsNode: ts ? require.resolve('ts-node/register/transpile-only') : '',
  };
}

interface TsNodeService {
  compile(code: string, fileName: string): string;
}

/** By module: its code and its imports' (null: no TypeScript compiler here). */
const shipped = new Map<string, Record<string, string> | null>();

/**
 * `module` and the TypeScript files it imports, compiled here for a worker: by this process's
 * ts-node when it runs under one (the bench), else by TypeScript's transpiler as tsconfig.json
 * says (ts-jest's tests). null: no TypeScript here (the worker then registers ts-node itself).
 */
function compiledCode(module: string): Record<string, string> | null {
  const known = shipped.get(module);
  if (known !== undefined) return known;
  let code: Record<string, string> | null = {};
  try {
    const compile = compiler();
    const out = code;
    const visit = (file: string) => {
      if (file in out) return;
      const source = fs.readFileSync(file, 'utf8');
      out[file] = compile(source, file);
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
