import * as path from 'node:path';
import { BrainStore } from '../../src/brain/store';
import { localRaw } from '../../src/cli/source/local-raw';
import { chooseSource } from '../../src/config/brain-source';
import { homeSettings } from '../../src/config/home-settings';
import { useRest } from '../rest/rest-home';
import { addEchoSessions, clear, ECHO, STEP, V1, V2 } from './echo-sessions';

/** With REDACT=off the session's values change nothing, and no transcript is read for them. */
const r = useRest({ REDACT: 'off' }, addEchoSessions);

describe('session values with REDACT=off (H-B)', () => {
  it('every record route shows the records as written', async () => {
    const tiers = jest.spyOn(BrainStore.prototype, 'transcriptTiers');
    try {
      for (const full of [false, true]) {
        expect((await r.gql(STEP(ECHO, 1, full))).session.step).toEqual(clear('earlier'));
        expect((await r.gql(STEP(ECHO, 3, full))).session.step).toEqual(clear('later'));
        expect((await r.gql(STEP(ECHO, 2, full))).session.step.content).toBe(
          `export DB_PASSWORD=${V1} && echo $DB_PASSWORD`,
        );
      }
      const raw = await r.get(`/api/sessions/${ECHO}/steps/3/raw`);
      expect(JSON.parse(raw.text).thinking).toBe(`it printed ${V2}`);
      const md = await r.get(`/api/sessions/${ECHO}/export?format=markdown`);
      expect(md.text).toContain(`later: connecting with ${V1}`);
      const settings = homeSettings({
        GEMINI_HOME: r.sh.home,
        CACHE_DIR: path.join(r.sh.dir, 'cli-cache'),
        REDACT: 'off',
      });
      const line = await localRaw(settings, await chooseSource(settings), ECHO, 1, false);
      expect(JSON.parse(line.toString()).content).toBe(`earlier: connecting with ${V1}`);
      expect(tiers).not.toHaveBeenCalled();
    } finally {
      tiers.mockRestore();
    }
  });
});
