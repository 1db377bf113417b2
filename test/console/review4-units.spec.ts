import { withoutOsc } from '../../console/src/components/osc';
import { parseSearch, stringifySearch } from '../../console/src/routes/search-params';
import {
  badTabOf,
  parseSessionQuery,
  parseStepSearch,
  tabOf,
  tabNotice,
} from '../../console/src/views/session/tabs';

/** The fourth outside review's lows (#20) that are units: L4, L7, L13. */
describe('a tab= that names no tab (L4)', () => {
  it('is no tab, read from the URL as written and said with the accepted tabs', () => {
    expect(parseSessionQuery({ tab: 'Timeline' })).toEqual({});
    expect(parseSessionQuery({ tab: 'commands' })).toEqual({ tab: 'commands' });
    expect(parseStepSearch({ tab: 'x', hl: 'a' })).toEqual({ hl: 'a' });
    expect(['Timeline', 'commands', undefined].map(tabOf)).toEqual([
      'timeline',
      'commands',
      'timeline',
    ]);
    expect(['Timeline', '<script>', 'commands', 'timeline', undefined, 5].map(badTabOf)).toEqual([
      'Timeline',
      '<script>',
      undefined,
      undefined,
      undefined,
      '5',
    ]);
    expect(tabNotice('<script>', (t) => t)).toBe(
      'tab=<script> names no view of a session (accepted: timeline, changes, commands, artifacts, secrets, problems); the timeline is shown.',
    );
  });
});

describe('OSC sequences out of tool output (L7)', () => {
  it('drops OSC 8 and title sequences, BEL, ESC \\ or C1 terminated, keeping the link text', () => {
    expect(
      withoutOsc(
        'a \u001b]8;;https://x.test/p\u001b\\link\u001b]8;;\u001b\\ b \u001b]0;t\u0007c \u009d8;;u\u009ctext\u009d8;;\u009c',
      ),
    ).toBe('a link b c text');
    // Unterminated: left (shown as U+FFFD by the page).
    expect(withoutOsc('x \u001b]8;;https://x')).toBe('x \u001b]8;;https://x');
    expect(withoutOsc('\u001b[31mred\u001b[0m')).toBe('\u001b[31mred\u001b[0m');
  });
});

describe('lists in the URL (L13)', () => {
  it('writes commas as commas, and reads them escaped or not', () => {
    expect(stringifySearch({ env: 'cli,acp', q: 'a b&c' })).toBe('?env=cli,acp&q=a+b%26c');
    expect(parseSearch('?env=cli%2Cacp')).toEqual({ env: 'cli,acp' });
    expect(parseSearch('?env=cli,acp')).toEqual({ env: 'cli,acp' });
    expect(parseSearch(stringifySearch({ q: 'x,%2C' }))).toEqual({ q: 'x,%2C' });
  });
});
