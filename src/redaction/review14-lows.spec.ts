import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r13's lows: npm and Hugging Face tokens longer than their documented length (README:
 * a longer token is masked to its run's end) or followed by `_`/`-` were not masked at all;
 * printf's positional and doubled placeholders (`%1$s`, `%%s`) and `mysql -p%s` were masked as
 * values. Tokens are made up.
 */

const { everyForm } = countingRedactor();
const NPM = '[REDACTED:npm-token]';
const HF = '[REDACTED:huggingface-token]';

describe('npm and Hugging Face tokens longer than documented', () => {
  everyForm([
    ['npm_ and 40', 'tok npm_zdAJ0TAmWfU6oJ3eRHDRPKbvvDWgLg3mG4OMXzAB end', `tok ${NPM} end`],
    ['npm_ and 37', 'tok npm_f0e8kKDajCEQUJVhxg4cFVui0gHXaQ3zSBSmF end', `tok ${NPM} end`],
    [
      'npm_ and 36 then _x',
      'tok npm_oHD6gpjdJpdtODVqKunxEP7roXnvFthIeujg_x end',
      `tok ${NPM}_x end`,
    ],
    [
      'npm_ and 36 then -x',
      'tok npm_UTnF7ZWyAAnDQcgoQTjY8E5VgfcEjrb7Paro-x end',
      `tok ${NPM}-x end`,
    ],
    ['hf_ and 40', 'tok hf_fplgSSVuwxZMCFTmRjYFKSJgUGStONcpizyBHicw end', `tok ${HF} end`],
    ['hf_ and 35', 'tok 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9 end', `tok ${HF} end`],
  ]);
});

describe("printf's placeholders are no value", () => {
  everyForm([
    [
      'String.format %1$s',
      'String.format("password=%1$s", pw)',
      'String.format("password=%1$s", pw)',
    ],
    ['echo %%s', 'echo "password: %%s" | x', 'echo "password: %%s" | x'],
    ['mysql -p%s', 'mysql -p%s db', 'mysql -p%s db'],
    ['mysql -p%1$s', 'mysql -p%1$s db', 'mysql -p%1$s db'],
  ]);
});
