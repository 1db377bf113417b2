import { nearMisses } from './near-miss';

const KNOWN = ['GEMINI_HOME', 'BRAIN_ROOTS', 'HOST', 'PORT', 'CACHE_DIR', 'XDG_CACHE_HOME'];
const MORE = ['LOG_LEVEL', 'API_KEYS_FILE', 'REDACT', 'MAX_TOKENS', 'POLL_MS', ...KNOWN];

describe('nearMisses', () => {
  it('names each look-alike of a setting with the setting it most likely means', () => {
    const env = {
      KEYS_FILE: 'k.json',
      REDCAT: 'on',
      REDACTED: '1',
      GEMINI_HOM: '/g',
      BRAINQL_REDACT: 'off',
      LOGLEVEL: 'debug',
      MAX_TOKEN: '9',
      PORTS: '1',
    };
    expect(nearMisses(env, MORE)).toEqual([
      { name: 'BRAINQL_REDACT', meant: 'REDACT' },
      { name: 'GEMINI_HOM', meant: 'GEMINI_HOME' },
      { name: 'KEYS_FILE', meant: 'API_KEYS_FILE' },
      { name: 'LOGLEVEL', meant: 'LOG_LEVEL' },
      { name: 'MAX_TOKEN', meant: 'MAX_TOKENS' },
      { name: 'PORTS', meant: 'PORT' },
      { name: 'REDACTED', meant: 'REDACT' },
      { name: 'REDCAT', meant: 'REDACT' },
    ]);
  });

  it("leaves a shell's and other tools' variables alone", () => {
    const names = [
      'HOME',
      'HOSTNAME',
      'PATH',
      'PWD',
      'USER',
      'SHELL',
      'TERM',
      'LANG',
      'COLUMNS',
      'LINES',
      'NODE_ENV',
      'CI',
      'TMPDIR',
      'PIP_CACHE_DIR',
      'XDG_DATA_HOME',
      'XDG_CONFIG_HOME',
      'DOCKER_HOST',
      'GEMINI_API_KEY',
      'API_KEY',
      'PGHOST',
      'EDITOR',
      'PAGER',
      'LOGNAME',
      'MAIL',
      'SHLVL',
      'GOROOT',
      'JAVA_HOME',
      'npm_config_cache',
      'GEMINI_HOME',
      'HOST',
    ];
    expect(nearMisses(Object.fromEntries(names.map((n) => [n, 'x'])), MORE)).toEqual([]);
  });
});
