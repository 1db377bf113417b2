import { outputOf } from './activity/commands';
import { requestOfMasked, summarize, userRequestOf } from './session-summary';
import { TextRedaction } from '../index/redacted-texts';
import { Redactor } from '../redaction/redactor';

/**
 * Review 18 (H4, H6): fields the store cuts out of a text (Command.output from a result's
 * content, userRequest from a USER_INPUT's) were masked alone, so a secret the redactor found
 * in another part of the text (`-pGk3j…` on the `Ran:` line, `-pYs4d…` in the running
 * commands) and masked where the part repeats it was served clear in the part. Cut from the
 * content masked whole, the part shows exactly what the masked content shows.
 */

const r = new Redactor({ enabled: true, extraPatterns: [] });
const mask = (t: string) => r.redactText(t);
const P = '[REDACTED:password]';

const OUTPUT_CONTENT =
  'Created At: 2026-06-01T10:00:00Z\nCompleted At: 2026-06-01T10:00:02Z\n' +
  'Ran: mysql -uroot -pGk3jHf8DsA5qWe2R -e "select 1"\nThe command completed successfully.\n' +
  'Output:\nconnected as root with Gk3jHf8DsA5qWe2R\n';
const INPUT =
  '<USER_REQUEST>\nWhy does the login with Ys4dFg7HjK1lZx9C fail on prod?\n</USER_REQUEST>\n' +
  '<ADDITIONAL_METADATA>\nRunning terminal commands:\n' +
  '- mysql -h prod -uroot -pYs4dFg7HjK1lZx9C app (in /w, running for 1m)\n</ADDITIONAL_METADATA>';
const REQUEST = `Why does the login with ${P} fail on prod?`;

describe('a part cut from the masked whole', () => {
  it('Command.output (H4): the echo of the command line masked, as in the content', () => {
    const masked = mask(OUTPUT_CONTENT);
    expect(masked).toContain(`Output:\nconnected as root with ${P}\n`);
    expect(outputOf(masked.split('\n'))).toBe(`connected as root with ${P}`);
    // Masked alone it was clear: the cause.
    expect(mask(outputOf(OUTPUT_CONTENT.split('\n')) as string)).toBe(
      'connected as root with Gk3jHf8DsA5qWe2R',
    );
  });

  it('userRequest (H6): the summary reads the request from the masked input', () => {
    const fallback = { createdAt: new Date(0), updatedAt: new Date(0) };
    expect(summarize([], [INPUT], fallback, requestOfMasked(mask)).userRequest).toBe(REQUEST);
    expect(summarize([], [INPUT], fallback).userRequest).toBe(
      'Why does the login with Ys4dFg7HjK1lZx9C fail on prod?',
    );
    expect(mask(userRequestOf(INPUT) as string)).not.toContain(P);
  });

  it('the home index stores the masked request, and counts its secrets once', () => {
    const on = new TextRedaction(true, []);
    const request = on.requestText(INPUT);
    expect(request).toEqual({ text: REQUEST, findings: new Map([['password', 1]]) });
    expect(on.request(INPUT)).toBe(REQUEST);
    // The content counts both; recordTexts takes the request's one from it (onlyOnce).
    expect(on.text(INPUT).findings).toEqual(new Map([['password', 2]]));
    // REDACT=off: the request stored as it is, its findings counted all the same.
    const off = new TextRedaction(false, []);
    expect(off.requestText(INPUT)).toEqual({
      text: 'Why does the login with Ys4dFg7HjK1lZx9C fail on prod?',
      findings: new Map([['password', 1]]),
    });
    expect(off.request(INPUT)).toBe('Why does the login with Ys4dFg7HjK1lZx9C fail on prod?');
  });

  it('a pushed session counts the markers its request already holds (as `text` does)', () => {
    const on = new TextRedaction(true, []);
    const pushed = `<USER_REQUEST>\nuse ${P} and token=Zq8wErT5yU1iOp3A\n</USER_REQUEST>`;
    expect(on.text(userRequestOf(pushed) as string, true).findings).toEqual(
      new Map([['password', 2]]),
    );
    expect(on.requestText(pushed, true)).toEqual({
      text: `use ${P} and token=${P}`,
      findings: new Map([['password', 2]]),
    });
  });

  const CLEAR = [
    '<USER_REQUEST>\nwhy does mysql -uroot fail on prod?\n</USER_REQUEST>',
    'fix the login page',
    '<USER_REQUEST>\nthe password field is empty\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nRunning terminal commands:\n- npm test (in /w)\n</ADDITIONAL_METADATA>',
  ];
  it.each(CLEAR)('leaves a request with no secret as it is: %j', (content) => {
    expect(requestOfMasked(mask)(content)).toBe(userRequestOf(content));
    const on = new TextRedaction(true, []);
    expect(on.requestText(content)).toEqual({ text: userRequestOf(content), findings: new Map() });
  });
});
