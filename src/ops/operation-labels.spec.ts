import { OperationLabels } from './operation-labels';

describe('OperationLabels', () => {
  it('admits names of succeeded requests up to the capacity, then labels the rest other', () => {
    const sut = new OperationLabels(2);
    expect([
      sut.label('A', true),
      sut.label('B', false), // failed: not admitted
      sut.label('B', true),
      sut.label('C', true), // over capacity
      sut.label('A', false), // already admitted: keeps its label even when it fails
      sut.label(undefined, true),
      sut.label('bad-name', true),
      sut.label('x'.repeat(65), true),
    ]).toEqual([
      'graphql:A',
      'graphql:other',
      'graphql:B',
      'graphql:other',
      'graphql:A',
      'graphql:anonymous',
      'graphql:other',
      'graphql:other',
    ]);
    expect(sut.size).toBe(2);
  });
});

describe('OperationLabels with a secret test', () => {
  it('never admits a name the test flags, even when the request succeeded', () => {
    const sut = new OperationLabels(10, (name) => name.startsWith('sk_live_'));
    expect([sut.label('sk_live_abc', true), sut.label('Fine', true)]).toEqual([
      'graphql:other',
      'graphql:Fine',
    ]);
    expect(sut.size).toBe(1);
  });
});
