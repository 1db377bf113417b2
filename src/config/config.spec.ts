import { createApp } from '../app.factory';
import { BrainStore } from '../brain/store';
import { ConfigError, loadConfig } from './config';

describe('CACHE_MAX_MB', () => {
  it('defaults to 256 MiB and takes an integer number of MiB', () => {
    expect(loadConfig({}).cacheMaxMb).toBe(256);
    expect(loadConfig({ CACHE_MAX_MB: '64' }).cacheMaxMb).toBe(64);
    expect(loadConfig({ CACHE_MAX_MB: '1' }).cacheMaxMb).toBe(1);
  });

  it.each(['0', '-5', '1.5', 'lots'])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ CACHE_MAX_MB: value })).toThrow(ConfigError);
    expect(() => loadConfig({ CACHE_MAX_MB: value })).toThrow(
      `CACHE_MAX_MB=${JSON.stringify(value)}: CACHE_MAX_MB must be an integer from 1 to 1048576 (MiB)`,
    );
  });

  it("is the store's cache budget", async () => {
    const app = await createApp(loadConfig({ CACHE_MAX_MB: '64', LOG_LEVEL: 'silent' }));
    try {
      expect(app.get(BrainStore).cache.maxBytes).toBe(64 * 1024 * 1024);
    } finally {
      await app.close();
    }
  });
});
