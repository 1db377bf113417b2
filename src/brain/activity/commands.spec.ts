import { commandOutcome, exitCodeOf, outputOf, taskLogPathOf } from './commands';

const ID = 'ac710000-0000-4000-8000-000000000001';

describe('command outcome', () => {
  it('takes the exit code from the first line that states one, trimmed and exact', () => {
    expect(
      exitCodeOf([
        'x',
        '  The command completed successfully.  ',
        'The command failed with exit code: 3',
      ]),
    ).toBe(0);
    expect(
      exitCodeOf([
        '\tThe command failed with exit code: 137\r',
        'The command completed successfully.',
      ]),
    ).toBe(137);
    expect(exitCodeOf(['The command failed with exit code: -2'])).toBe(-2);
    expect(exitCodeOf(['The command completed successfully'])).toBeNull(); // no period
    expect(exitCodeOf(['Note: The command completed successfully.'])).toBeNull();
    expect(exitCodeOf(['The command failed with exit code: 1 (timeout)'])).toBeNull();
    // A code no Int can carry does not decide; the next line that states one does.
    expect(
      exitCodeOf([
        'The command failed with exit code: 99999999999',
        'The command failed with exit code: 4',
      ]),
    ).toBe(4);
    expect(exitCodeOf([])).toBeNull();
  });

  it("takes the output after the first Output: line, without that line's indentation", () => {
    expect(outputOf(['a', '\t\tOutput:', '\t\tone', '  two', '\t\t\tthree', '', ' '])).toBe(
      'one\n  two\n\tthree',
    );
    expect(outputOf(['Output:', 'x', 'Output:', 'y  '])).toBe('x\nOutput:\ny');
    expect(outputOf(['Output:\r', 'line\r', ''])).toBe('line');
    expect(outputOf(['Output:'])).toBe('');
    expect(outputOf(['Output: inline'])).toBeNull();
    expect(outputOf(['no output line'])).toBeNull();
  });

  it('reads the task log path after the session id, percent-decoded, and refuses escapes', () => {
    const uri = (tail: string) => `Task logs are available at: file:///Users/x/brain/${ID}/${tail}`;
    expect(taskLogPathOf(uri('.system_generated/tasks/task-9.log'), ID)).toBe(
      '.system_generated/tasks/task-9.log',
    );
    expect(taskLogPathOf(uri('.system_generated/tasks/t%C3%A9%20a.log\nmore'), ID)).toBe(
      '.system_generated/tasks/té a.log',
    );
    expect(taskLogPathOf(uri('%E0%A4%A.log'), ID)).toBeNull(); // malformed escape
    expect(taskLogPathOf(uri('../other/x.log'), ID)).toBeNull();
    expect(taskLogPathOf(uri('a/%2E%2E/%2E%2E/x.log'), ID)).toBeNull();
    expect(taskLogPathOf(uri('x.log').replace(ID, 'another-session'), ID)).toBeNull();
    expect(taskLogPathOf('Task logs are available at: /no/scheme', ID)).toBeNull();
  });

  it('reads nothing from a result without content', () => {
    expect(commandOutcome(null, ID)).toEqual({
      background: false,
      exitCode: null,
      output: null,
      taskLogPath: null,
    });
    expect(commandOutcome('Tool is running as a background task with task id: x', ID)).toEqual({
      background: true,
      exitCode: null,
      output: null,
      taskLogPath: null,
    });
  });
});
