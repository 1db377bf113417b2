import { DIFFS, FORMS, markers } from './context-forms';
import { Redactor } from './redactor';

/**
 * The seventh outside review of issue 19: command lines whose secret no detector read (a token
 * or password after an option that only means one for that command). Each context in every
 * form a transcript or a served file holds it (as in contexts-review6.spec): the exact output,
 * and one finding per masked value (what the secrets report counts). Values are made up.
 */

const V = 'Wq7hG2kLp9Zx4Rt8Vb3N';

const CASES: [string, string, string][] = [
  // Database, broker and remote-shell clients' -p.
  ['cqlsh', `cqlsh -u cassandra -p ${V} db.internal`, 'cqlsh -u cassandra -p [R] db.internal'],
  [
    'rabbitmqadmin',
    `rabbitmqadmin -u admin -p ${V} list queues`,
    'rabbitmqadmin -u admin -p [R] list queues',
  ],
  ['influx -p', `influx -u admin -p ${V}`, 'influx -u admin -p [R]'],
  [
    'influx -password',
    `influx -username admin -password '${V}' -database metrics`,
    "influx -username admin -password '[R]' -database metrics",
  ],
  ['psexec', `psexec \\\\host -u bob -p ${V} cmd`, 'psexec \\\\host -u bob -p [R] cmd'],
  ['rdesktop', `rdesktop -u bob -p ${V} host`, 'rdesktop -u bob -p [R] host'],
  ['unrar', `unrar x -p${V} backup.rar`, 'unrar x -p[R] backup.rar'],
  ['SSHPASS', `SSHPASS=${V} sshpass -e ssh bob@host`, 'SSHPASS=[R] sshpass -e ssh bob@host'],
  // Upload and API tokens after -t, -k and long options.
  ['codecov', `codecov -t ${V} -f coverage.xml`, 'codecov -t [R] -f coverage.xml'],
  ['doctl', `doctl auth init -t ${V}`, 'doctl auth init -t [R]'],
  [
    'dotnet nuget push -k',
    `dotnet nuget push app.nupkg -k ${V} -s https://api.nuget.org/v3/index.json`,
    'dotnet nuget push app.nupkg -k [R] -s https://api.nuget.org/v3/index.json',
  ],
  [
    'curl --oauth2-bearer',
    `curl --oauth2-bearer ${V} https://api.example.com/v1/me`,
    'curl --oauth2-bearer [R] https://api.example.com/v1/me',
  ],
  ['ibmcloud', `ibmcloud login --apikey ${V} -r eu-de`, 'ibmcloud login --apikey [R] -r eu-de'],
  [
    'skopeo --dest-creds',
    `skopeo copy --dest-creds bob:${V} docker://a docker://b`,
    'skopeo copy --dest-creds bob:[R] docker://a docker://b',
  ],
  [
    'skopeo --src-creds=',
    `skopeo copy --src-creds=bob:${V} docker://a docker://b`,
    'skopeo copy --src-creds=bob:[R] docker://a docker://b',
  ],
];

const expand = (s: string) => s.replace(/\[R\]/g, '[REDACTED:password]');

describe('review 7: contexts in every form, masked exactly and counted once each', () => {
  const kinds: string[] = [];
  const r = new Redactor({ enabled: true, extraPatterns: [] }, (k) => kinds.push(k));
  const rows = CASES.flatMap(([name, input, expected]) => [
    ...Object.entries(FORMS).map(
      ([form, f]) => [`${name} (${form})`, f, input, expected, false] as const,
    ),
    ...Object.entries(DIFFS).map(
      ([form, f]) => [`${name} (diff ${form})`, f, input, expected, true] as const,
    ),
  ]);
  it.each(rows)('%s', (_label, form, input, expected, diff) => {
    kinds.length = 0;
    const want = form(expand(expected));
    const got = diff ? r.redactDiff(form(input)) : r.redactText(form(input));
    expect(got).toBe(want);
    // The secrets report counts what is masked: one finding per value, of its kind.
    expect(kinds.length).toBe(markers(want));
    expect([...kinds].sort()).toEqual(
      [...want.matchAll(/\[REDACTED:([\w-]+)\]/g)].map((m) => m[1]).sort(),
    );
  });
});

describe('review 7: what stays (no secret, a prompt, a file or a reference)', () => {
  const r = new Redactor({ enabled: true, extraPatterns: [] });
  it.each([
    'cqlsh -u cassandra db.internal 9042',
    'rdesktop -u bob -p - host',
    'influx -precision rfc3339 -p $INFLUX_PW',
    'unrar x -p- backup.rar',
    'codecov -t $CODECOV_TOKEN',
    'doctl auth init --context work',
    'ibmcloud login --apikey @~/apikey.json',
    'skopeo copy --dest-creds "$CREDS" docker://a docker://b',
    'pytest -p no:cacheprovider -k test_login',
    'tar -t -f backup.tar',
    'SSHPASS="$PW" sshpass -e ssh bob@host',
  ])('%s', (text) => {
    expect(r.redactText(text)).toBe(text);
  });
});
