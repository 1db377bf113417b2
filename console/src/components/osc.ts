/**
 * An OSC sequence: ESC `]` (or the 8-bit C1 OSC) … BEL or ST (ESC `\`, 8-bit ST). An OSC 8
 * hyperlink is `OSC 8;;address ST text OSC 8;; ST`: without its sequences, its text alone is
 * left, as a terminal shows it (no live link: the address is the brain's, not the reader's).
 * A window title (`OSC 0;title BEL`) goes as a terminal keeps it out of the output too.
 */
// eslint-disable-next-line no-control-regex
const OSC = /(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)/g;

/** `text` without its OSC sequences (see OSC); an unterminated one is left for shown's U+FFFD. */
export const withoutOsc = (text: string): string => text.replace(OSC, '');
