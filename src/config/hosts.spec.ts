import { allowedHosts, hostEntryErrors, hostName, isAllowedHost } from './hosts';

describe('hostName', () => {
  it.each([
    ['localhost:3000', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['127.0.0.1:8080', '127.0.0.1'],
    ['[::1]:3000', '::1'],
    ['[::1]', '::1'],
    ['brainql.corp.example.', 'brainql.corp.example'],
    ['Brainql.Corp.Example:443', 'brainql.corp.example'],
  ])('%s -> %s', (header, name) => expect(hostName(header)).toBe(name));

  it.each([undefined, '', 'a b', 'user@host', 'host/path', 'host:port', '[::1'])(
    'refuses %p',
    (header) => expect(hostName(header)).toBeNull(),
  );
});

describe('isAllowedHost', () => {
  const loopbackOnly = allowedHosts('127.0.0.1', []);

  it('answers localhost names and loopback addresses by default, nothing else', () => {
    const verdicts = [
      'localhost:3000',
      '127.0.0.1:3000',
      '127.9.9.9',
      '[::1]:3000',
      'app.localhost:3000',
      'evil.example',
      'evil.example:3000',
      '127.0.0.1.nip.io',
      'localhost.evil.example',
      '10.0.0.5:3000',
      undefined,
    ].map((h) => isAllowedHost(loopbackOnly, h));
    expect(verdicts).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('adds the listen address unless it is a wildcard', () => {
    expect(isAllowedHost(allowedHosts('10.0.0.5', []), '10.0.0.5:3000')).toBe(true);
    expect(isAllowedHost(allowedHosts('0.0.0.0', []), '0.0.0.0:3000')).toBe(false);
    expect(isAllowedHost(allowedHosts('::', []), '[::]:3000')).toBe(false);
  });

  it('adds ALLOWED_HOSTS entries: names, *.suffixes, and * for any', () => {
    const a = allowedHosts('0.0.0.0', ['brainql.corp.example', '*.team.example', '[fd00::1]']);
    expect(
      [
        'brainql.corp.example:3000',
        'x.team.example',
        'a.b.team.example',
        'team.example',
        '[fd00::1]:3000',
        'other.example',
      ].map((h) => isAllowedHost(a, h)),
    ).toEqual([true, true, true, false, true, false]);
    expect(isAllowedHost(allowedHosts('0.0.0.0', ['*']), 'anything.example')).toBe(true);
  });
});

describe('hostEntryErrors', () => {
  it('names every entry that is not a host, an address, *.domain or *', () => {
    expect(
      hostEntryErrors([
        'ok.example',
        '*.ok.example',
        '*',
        '10.0.0.1',
        '[::1]',
        'http://x',
        'a:80',
        'b c',
      ]),
    ).toEqual([
      '"http://x" is not a host name, an IP address, "*.domain" or "*" (no ports or schemes)',
      '"a:80" is not a host name, an IP address, "*.domain" or "*" (no ports or schemes)',
      '"b c" is not a host name, an IP address, "*.domain" or "*" (no ports or schemes)',
    ]);
  });
});
