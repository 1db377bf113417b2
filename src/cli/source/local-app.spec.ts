import { loadConfig } from '../../config/config';
import { localEnv } from './local-app';

describe('the local application settings', () => {
  it('lifts the rate limit, drops listening and key settings, keeps the home settings', () => {
    const env = localEnv({
      GEMINI_HOME: '/home/u/.gemini',
      REDACT: 'off',
      RATE_LIMIT_POINTS: '600',
      API_KEYS_FILE: '/etc/keys',
      ALLOW_ANONYMOUS: 'true',
      ALLOWED_HOSTS: 'brain.example.com',
      PORT: '80',
    });
    expect(env).toEqual({
      GEMINI_HOME: '/home/u/.gemini',
      REDACT: 'off',
      RATE_LIMIT_POINTS: '100000000',
      QUERY_TIMEOUT_MS: '600000',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    });
    // The configuration accepts it: the highest value RATE_LIMIT_POINTS takes.
    expect(loadConfig({ ...env, WATCH: 'off' }).limits.ratePerMinute).toBe(100_000_000);
    // It waits for a session's secret values however long (the highest value), or as told.
    expect(loadConfig({ ...env, WATCH: 'off' }).limits.timeoutMs).toBe(600_000);
    expect(localEnv({ QUERY_TIMEOUT_MS: '2000' }).QUERY_TIMEOUT_MS).toBe('2000');
  });
});
