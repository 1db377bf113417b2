import * as path from 'node:path';
import { makeTempDir, put } from '../fixtures/fs-util';

/**
 * A brain home planted with secrets in every shape a transcript stores them: compact-tier
 * arguments (JSON text inside JSON, as real transcripts store every argument), full-tier plain
 * arguments, commands after a JSON `\n`, JSON inside an argument, step outputs, artifacts,
 * JSON-escaped text, and a transcript past the in-memory masking limit (streamed). Every
 * planted value is distinct, so an answer holding one (or its middle) is a leak.
 */

export const PLANTED_ID = 'b1a70000-0000-4000-8000-000000000001';

export const PLANTED = {
  userPassword: 'UserReqPlant9',
  ghp: ['ghp_', 'Pl4ntT0k3nAbCdEfGhIjKlMnOpQrStUvWx12'].join(''),
  mysql: 'MyS3cretPlant',
  argPassword: 'Hunter2PlantPw!x',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYPLANTKEY1',
  docker: 'D0ckPlant77',
  nestedBearer: 'PlantBearer0123456789abcd',
  jwt: [
    'eyJhbGciOiJIUzI1NiJ9',
    'eyJzdWIiOiJwbGFudGVkLXVzZXIifQ',
    'PlantSigAbCdEfGhIjKlMnOpQrStUvWxYz012345',
  ].join('.'),
  apiKey: 'PlantApiKey12345678',
  escapedGhp: ['ghp_', 'Esc4p3dPl4ntAbCdEfGhIjKlMnOpQrStUv98'].join(''),
  sshpass: 'SshPassPlant5',
  // Issue 19 item 2: the shapes of a real session's site password, and a token with digits.
  siteMdp: 'SiteMdpPlant!1',
  siteFill: 'SiteFillPlant!2',
  hfToken: ['hf_', 'Pl4ntHfT0k3nAbCdEfGhIjKlMnOpQrSt12'].join(''),
  // Issue 19 review item 8: files no field shows, whose downloads are masked and which the
  // secrets report counts (named by their path).
  uploadPassword: 'UploadPlantPw9',
  taskGhp: ['ghp_', 'T4skPl4ntAbCdEfGhIjKlMnOpQrStUvWx345'].join(''),
  sidecarKey: 'SidecarPlantKey1',
  versionKey: 'VersionPlantKey2',
  messageToken: 'MsgPlantToken33',
  pngPassword: 'PngPlantPw44',
  // Issue 19, fourth review: contexts no detector knew (a cloud CLI, tools' password options,
  // a cookie jar, a pre-signed URL, an `az … keys list` answer).
  awsSession: 'AwsSessPlantTok55',
  curlSu: 'CurlSuPlant66',
  storepass: 'StorePassPlant7',
  cookieJar: 'JarCookiePlant8',
  sasSig: 'SasSigPlantAbCdEf0123%2B',
  azKey: 'AzKeyPlant0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN==',
  // Sixth review: an edited .netrc line alone in a JSON string (no `machine` before it), and
  // a .ppk whose new private line follows the removed ones in the edit's diff.
  netrcOld: 'NetrcOldPlant10',
  netrcNew: 'NetrcNewPlant11',
  ppkOld: 'AAAAgQPpkOldPlantLine12',
  ppkNew: 'AAAAgQPpkNewPlantLine13',
  // Issue 19, sixth review: tools that take a password as a word's argument (wp-cli,
  // mysqladmin, rclone, lftp, Gradle), a browser tool's JSON step, Terraform's sensitive output.
  wpPass: 'WpCliPlant14',
  mysqladminPass: 'MysqlAdminPlant15',
  rcloneSecret: 'RcloneSecretPlant16',
  lftpPass: 'LftpPlant17',
  gradleStore: 'GradleStorePlant18',
  gradleKey: 'GradleKeyPlant19',
  browserFill: 'BrowserFillPlant20',
  tfSensitive: 'TfSensitivePlant21',
  // Second console review (20d): tokens right after a URL escape (a query string or header
  // written URL-encoded).
  urlSlack: ['xoxb-', '210987654321-3210987654321-PlantUrlSlackTokenAb'].join(''),
  urlAws: ['AKIA', 'PLANTURLAWS12345'].join(''),
  // Review 18: a value found by its key in one part of a text and repeated in another part
  // that the store cuts out of it (Command.output, userRequest) or in another argument of the
  // same call (H4, H6, H5).
  outputEcho: 'Gk3jHf8DsA5qWe2R',
  requestEcho: 'Ys4dFg7HjK1lZx9C',
  argEcho: 'Mn2bVc6XzA8sDf4G',
} as const;

/** Every planted value, and its middle (a partial mask must not leave it either). */
export function leakNeedles(): string[] {
  return Object.values(PLANTED).flatMap((v) => {
    const mid = Math.floor(v.length / 2);
    return [v, v.slice(mid - 4, mid + 4)];
  });
}

const P = PLANTED;
const at = (s: number) => `2026-06-01T10:00:${String(s).padStart(2, '0')}Z`;

interface Call {
  name: string;
  args: Record<string, unknown>;
}

function record(index: number, fields: Record<string, unknown>, calls?: Call[]) {
  return {
    step_index: index,
    source: index === 0 ? 'USER_EXPLICIT' : 'MODEL',
    type: index === 0 ? 'USER_INPUT' : 'PLANNER_RESPONSE',
    status: 'DONE',
    created_at: at(index),
    ...fields,
    ...(calls ? { tool_calls: calls } : {}),
  };
}

const STEPS: [Record<string, unknown>, Call[]?][] = [
  [
    {
      // Review 18, H6: the metadata's running command names the value the request repeats.
      content:
        `<USER_REQUEST>\nlog in with password=${P.userPassword} please\n` +
        `Why does the login with ${P.requestEcho} fail on prod?\n</USER_REQUEST>\n` +
        `<ADDITIONAL_METADATA>\nRunning terminal commands:\n` +
        `- mysql -h prod -uroot -p${P.requestEcho} app (in /w, running for 1m)\n` +
        `</ADDITIONAL_METADATA>`,
    },
  ],
  [
    { thinking: `I will use the token ${P.ghp} for the API.` },
    [
      {
        name: 'run_command',
        args: { CommandLine: `cd /srv\nmysql -u root -p${P.mysql} db`, Cwd: '/srv' },
      },
    ],
  ],
  [
    {},
    [
      { name: 'login', args: { username: 'bob', password: P.argPassword } },
      { name: 'aws_configure', args: { AWS_SECRET_ACCESS_KEY: P.awsSecret, region: 'eu-west-1' } },
    ],
  ],
  [
    {},
    [
      {
        name: 'run_command',
        args: { CommandLine: `echo start\ndocker login -u bob -p ${P.docker}` },
      },
      {
        name: 'http_request',
        args: {
          Url: 'https://api.example.com/v1',
          Headers: { Authorization: `Bearer ${P.nestedBearer}` },
        },
      },
    ],
  ],
  [
    { content: 'The command printed the session token.' },
    [
      {
        name: 'run_command',
        args: { CommandLine: `sshpass -p '${P.sshpass}' ssh deploy@host uptime` },
      },
    ],
  ],
  [
    { thinking: `Download the model with ${P.hfToken} then log in to the site.` },
    [
      {
        name: 'write_to_file',
        args: {
          TargetFile: '/srv/extract.py',
          CodeContent:
            `VOTRE_MDP = "${P.siteMdp}"\n\nasync def run(page):\n` +
            `    await page.fill('input[name="password"]', "${P.siteFill}")\n`,
        },
      },
    ],
  ],
  [
    { content: 'Set up the cloud tools.' },
    [
      {
        name: 'run_command',
        args: {
          CommandLine:
            `aws configure set aws_session_token ${P.awsSession}\n` +
            `curl -su admin:${P.curlSu} https://x && keytool -list -storepass ${P.storepass}`,
        },
      },
    ],
  ],
  [
    { content: 'Rotate the credentials.' },
    [
      {
        name: 'replace_file_content',
        args: {
          TargetFile: '/home/dev/.netrc',
          TargetContent: `  password ${P.netrcOld}`,
          ReplacementContent: `  password ${P.netrcNew}`,
        },
      },
      {
        name: 'replace_file_content',
        args: {
          TargetFile: '/home/dev/k.ppk',
          TargetContent: `Private-Lines: 1\n${P.ppkOld}\nPrivate-MAC: aa`,
          ReplacementContent: `Private-Lines: 1\n${P.ppkNew}\nPrivate-MAC: bb`,
        },
      },
    ],
  ],
  [
    { content: 'Configure the site, the backups and the release signing.' },
    [
      {
        name: 'run_command',
        args: {
          CommandLine:
            `wp config set DB_PASSWORD ${P.wpPass}\nmysqladmin -u root password '${P.mysqladminPass}'\n` +
            `rclone config create r s3 access_key_id AKIDX secret_access_key ${P.rcloneSecret}\n` +
            `lftp -u deploy,${P.lftpPass} sftp://files.example.com`,
        },
      },
      {
        name: 'write_to_file',
        args: {
          TargetFile: '/srv/app/build.gradle',
          CodeContent: `signingConfigs {\n  release {\n    storePassword "${P.gradleStore}"\n    keyPassword '${P.gradleKey}'\n  }\n}\n`,
        },
      },
      {
        name: 'browser_steps',
        args: { steps: [{ action: 'fill', selector: '#password', value: P.browserFill }] },
      },
    ],
  ],
  [
    { content: `The hook is https://hooks.example/in?token%3D${P.urlSlack}` },
    [
      {
        name: 'run_command',
        args: { CommandLine: `curl 'https://s3.example/?X-Key%3D${P.urlAws}&acl=private'` },
      },
    ],
  ],
  // Review 18: the command's output repeats the password its command line gave (H4), and the
  // edit's replacement repeats the value its target held (H5). Steps 11 and 12 are the calls'
  // results.
  [
    { content: 'Check the database and rotate its password.' },
    [
      {
        name: 'run_command',
        args: { CommandLine: `mysql -uroot -p${P.outputEcho} -e "select 1"`, Cwd: '/w' },
      },
      {
        name: 'replace_file_content',
        args: {
          TargetFile: '/w/.env',
          TargetContent: `DB_PASSWORD=${P.argEcho}\n`,
          ReplacementContent: `DB_PASSWORD=changed\n# old was ${P.argEcho}\n`,
        },
      },
    ],
  ],
  [
    {
      type: 'RUN_COMMAND',
      source: 'SYSTEM',
      content:
        `Created At: 2026-06-01T10:00:00Z\nCompleted At: 2026-06-01T10:00:02Z\n` +
        `Ran: mysql -uroot -p${P.outputEcho} -e "select 1"\n` +
        `The command completed successfully.\nOutput:\nconnected as root with ${P.outputEcho}\n`,
    },
  ],
  [{ type: 'CODE_ACTION', source: 'SYSTEM', content: 'Edited /w/.env.' }],
];

/** The compact tier stores every argument as JSON text. */
const compactArgs = (calls: Call[]) =>
  calls.map((c) => ({
    name: c.name,
    args: Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, JSON.stringify(v)])),
  }));

export const compactLines = (): string[] =>
  STEPS.map(([f, calls], i) => JSON.stringify(record(i, f, calls && compactArgs(calls))));
export const fullLines = (): string[] =>
  STEPS.map(([f, calls], i) => JSON.stringify(record(i, f, calls)));

/** Past the 8 MiB the file route masks in memory: this one is masked as it streams. */
const BIG_PAD = `${JSON.stringify({ note: 'x'.repeat(1000) })}\n`.repeat(9 * 1024);

/** Session-relative file name -> content. */
export function plantedFiles(): Record<string, string | Buffer> {
  return {
    '.system_generated/logs/transcript.jsonl': `${compactLines().join('\n')}\n`,
    '.system_generated/logs/transcript_full.jsonl': `${fullLines().join('\n')}\n`,
    '.system_generated/steps/4/output.txt': `$ curl -s https://auth/token\n{"access":"${P.jwt}"}\n`,
    '.system_generated/steps/8/output.txt': `$ terraform output -json\n${JSON.stringify(
      { db_conn: { sensitive: true, type: 'string', value: P.tfSensitive } },
      null,
      2,
    )}\n`,
    '.system_generated/steps/6/output.txt':
      `.example.com\tTRUE\t/\tTRUE\t1767225600\tsessionid\t${P.cookieJar}\n` +
      `https://a.blob.core.windows.net/c/b?sv=2022-11-02&sig=${P.sasSig}\n` +
      `[{"keyName": "key1", "permissions": "FULL", "value": "${P.azKey}"}]\n`,
    'notes.md': `# Notes\n\nConfigure with api_key=${P.apiKey} in .env\n`,
    'scratch/data.json': `{"k":"\\u0067${P.escapedGhp.slice(1)}","n":1}\n`,
    'scratch/big.jsonl': BIG_PAD + compactLines().join('\n') + '\n',
    '.user_uploaded/creds.txt': `password: ${P.uploadPassword}\n`,
    '.system_generated/tasks/t1.log': `export GITHUB_TOKEN=${P.taskGhp}\n`,
    'notes.md.metadata.json': `{"summary":"uses api_key=${P.sidecarKey}"}`,
    'notes.md.resolved.1': `# Notes\n\napi_key=${P.versionKey}\n`,
    '.system_generated/messages/m1.json': `{"token":"${P.messageToken}"}\n`,
    'shot.png': Buffer.from(
      `${PNG_HEAD}tEXtComment\0password=${P.pngPassword}\0\xde\xad`,
      'latin1',
    ),
  };
}

/** A PNG signature and header start: the file is verifiably binary (masked as bytes). */
const PNG_HEAD = '\x89PNG\r\n\x1a\n\0\0\0\rIHDR';

/** A brain home (GEMINI_HOME) holding the planted session. */
export function buildPlantedHome(): { root: string; home: string; dir: string } {
  const root = makeTempDir('brainql-planted-');
  const home = path.join(root, 'home');
  const dir = path.join(home, 'antigravity-ide/brain', PLANTED_ID);
  for (const [rel, data] of Object.entries(plantedFiles())) put(path.join(dir, rel), data);
  return { root, home, dir };
}
