import { ConfigError, loadConfig } from './config';
import { normalOrigin } from './origins';

/** CORS_ORIGINS accepts bare origins only, and keeps them as browsers send `Origin`. */
describe('CORS_ORIGINS', () => {
  it('defaults to no origin at all', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
  });

  it('keeps each origin as a browser serializes it (lower-case host, default port dropped)', () => {
    const c = loadConfig({
      CORS_ORIGINS: ' https://Dash.Example.com , http://127.0.0.1:8080,https://a.example:443/ ',
    });
    expect(c.corsOrigins).toEqual([
      'https://dash.example.com',
      'http://127.0.0.1:8080',
      'https://a.example',
    ]);
  });

  it('stops the start naming the variable and every entry that is not an origin', () => {
    let message = '';
    try {
      loadConfig({
        CORS_ORIGINS:
          'https://ok.example,*,https://x.example/path,ftp://f.example,dash.example,https://u:p@h.example',
      });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    const tail =
      'is not an origin: scheme http or https, a host and an optional port, nothing else (e.g. https://dash.example.com:8443)';
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      `  CORS_ORIGINS: "*" ${tail}`,
      `  CORS_ORIGINS: "https://x.example/path" ${tail}`,
      `  CORS_ORIGINS: "ftp://f.example" ${tail}`,
      `  CORS_ORIGINS: "dash.example" ${tail}`,
      `  CORS_ORIGINS: "https://u:p@h.example" ${tail}`,
    ]);
  });

  it('normalOrigin: origins and IPv6 literals pass; queries, fragments and bad ports do not', () => {
    expect(
      [
        'http://[::1]:3000',
        'https://h.example?x=1',
        'https://h.example#f',
        'https://h.example:99999',
        'https://',
      ].map(normalOrigin),
    ).toEqual(['http://[::1]:3000', null, null, null, null]);
  });
});
