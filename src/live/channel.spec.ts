import { Channel } from './channel';

describe('Channel', () => {
  const overflow = (cap: number) => new Error(`more than ${cap} waiting`);

  it('hands values over in order and ends when returned, even while a pull waits', async () => {
    const sut = new Channel<number>(10, overflow);
    const ended: string[] = [];
    sut.onEnd(() => ended.push('cleanup'));
    sut.push(1);
    sut.push(2);
    expect(await sut.next()).toEqual({ value: 1, done: false });
    expect(await sut.next()).toEqual({ value: 2, done: false });
    const waiting = sut.next();
    await sut.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(ended).toEqual(['cleanup']);
  });

  it('fails a consumer that leaves more than the cap waiting, dropping the queue', async () => {
    const sut = new Channel<number>(3, overflow);
    let cleanups = 0;
    sut.onEnd(() => cleanups++);
    for (let i = 0; i < 5; i++) sut.push(i);
    await expect(sut.next()).rejects.toThrow('more than 3 waiting');
    expect(await sut.next()).toEqual({ value: undefined, done: true });
    expect(cleanups).toBe(1);
  });
});
