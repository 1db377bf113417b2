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
