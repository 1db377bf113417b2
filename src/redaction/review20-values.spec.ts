import { marker } from './redactor';
import { andWhole, fourForms } from '../../test/redaction/four-forms';

/**
 * Outside review 20, 4: values with `.`, `(`, `&`. A dotted value was read as a member path
 * (`os.environ`) and served clear whole (`DB_PASSWORD=Pa55.w0rdQz1aa`,
 * `SECRET_KEY=Sb12Cd34.Ef56Gh78`, `DOPPLER_TOKEN=dp.st.prd.Tb12…`), a `(` after the value's
 * start as a call (`DB_PASSWORD=Qg6(abc)def9a`), and a `&` ended it (`password:
 * Tr0ub4dor&3Qda` served `&3Qda` where its line was no configuration line's). Each form:
 * decoded, inside a JSON line, the raw bytes of that line, JSON inside JSON.
 */

const { r, line, nested, forms } = fourForms();

/** An input and its value, masked whole as `password`. */
const MASKED: readonly (readonly [string, string])[] = [
  ['DB_PASSWORD=Pa55.w0rdQz1aa', 'Pa55.w0rdQz1aa'],
  ['password: Hunter2.Secret9cb', 'Hunter2.Secret9cb'],
  ['export API_KEY=S3cr3t.P4ss.W0rdgd', 'S3cr3t.P4ss.W0rdgd'],
  ['SECRET_KEY=Sb12Cd34.Ef56Gh78', 'Sb12Cd34.Ef56Gh78'],
  ['PGPASSWORD=Ub12.Cd34Ef56 psql -h db', 'Ub12.Cd34Ef56'],
  ['GITHUB_TOKEN=a.b.Tb12Cd34Ef56Gh78 gh pr list', 'a.b.Tb12Cd34Ef56Gh78'],
  ['DOPPLER_TOKEN=dp.st.prd.Tb12Cd34Ef56Gh78Ij90Kl12', 'dp.st.prd.Tb12Cd34Ef56Gh78Ij90Kl12'],
  ['DB_PASSWORD=Qg6(abc)def9a', 'Qg6(abc)def9a'],
  ['password: Qg6(abc)def9a', 'Qg6(abc)def9a'],
  ['DB_PASSWORD=Qg6(abc)def9a npm start', 'Qg6(abc)def9a'],
  ['password: Tr0ub4dor&3Qda', 'Tr0ub4dor&3Qda'],
  ['  db password: Tr0ub4dor&3Qda', 'Tr0ub4dor&3Qda'],
  ['Use password: Tr0ub4dor&3Qda for the admin', 'Tr0ub4dor&3Qda'],
  ['login(password=Tr0ub4dor&3Qda)', 'Tr0ub4dor&3Qda'],
  ['export DB_PASSWORD=Tr0ub4dor&3Qda', 'Tr0ub4dor&3Qda'],
  ['the password: Hunter2.Secret9cb', 'Hunter2.Secret9cb'],
  ['set password: Pa55.w0rdQz1aa now', 'Pa55.w0rdQz1aa'],
];

describe('values with `.`, `(`, `&` (review 20, 4)', () => {
  it.each(MASKED)('masks the whole value of %j in all four forms', (t, v) => {
    const want = t.replace(v, marker('password'));
    const sameLength = marker('password').slice(0, v.length).padEnd(v.length, '*');
    expect(forms(t)).toEqual(
      andWhole([want, line(want), line(t).replace(v, sameLength), nested(want)]),
    );
  });

  /** Code and prose after the same keys. */
  const CLEAR = [
    'password: see below.',
    'API_KEY=os.environ.get("X")',
    'SECRET_KEY=settings.SECRET_KEY',
    'password=self.password',
    'token=config.token()',
    'token = base64.b64encode(raw)',
    'password=os.environ.PASSWORD',
    'api_key = request.headers.X_API_KEY',
    'DB_PASSWORD=config.db.password',
    'password=getpass(prompt)',
    'password=hash(x)y',
    'password=md5(salt)+x',
    'token=abc&&make',
    'SECRET_KEY=Settings.v2Config.key',
    'aws_secret = s3Client.config.credentials.secretAccessKey',
    'token = Http2Client.DEFAULT_TOKEN',
    'API_KEY=S3Client.apiKey',
  ];

  it.each(CLEAR)('leaves %j as it is', (t) => {
    expect(forms(t)).toEqual(andWhole([t, line(t), line(t), nested(t)]));
  });

  it('ends a query value at the next parameter', () => {
    expect(r.redactText('https://x/cb?token=abc123def456&state=xyz')).toBe(
      'https://x/cb?token=[REDACTED:password]&state=xyz',
    );
  });
});
