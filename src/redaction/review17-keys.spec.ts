import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r17 M4: names people give secrets that no key rule read — a personal access token
 * (`GITHUB_PAT`), `pw` as its own word, Elasticsearch's `Authorization: ApiKey …` — clear on
 * every route. Words that only end the same way stay. Values are made up.
 */

const { everyForm } = countingRedactor();
const PW = '[REDACTED:password]';
const BEARER = '[REDACTED:bearer]';
const V = 'Vq76gijzA6i8X7og';

describe('a personal access token, pw, the ApiKey scheme', () => {
  everyForm([
    ['GITHUB_PAT', `GITHUB_PAT=${V}`, `GITHUB_PAT=${PW}`],
    ['AZURE_DEVOPS_PAT exported', `export AZURE_DEVOPS_PAT=${V}`, `export AZURE_DEVOPS_PAT=${PW}`],
    ['DB_PW', `DB_PW=${V}`, `DB_PW=${PW}`],
    ['pw quoted', `pw = "${V}"`, `pw = "${PW}"`],
    ['dbPw', `dbPw: ${V}`, `dbPw: ${PW}`],
    ['JSON pw', `{"pw": "${V}"}`, `{"pw": "${PW}"}`],
    ['ApiKey', `Authorization: ApiKey ${V}`, `Authorization: ApiKey ${BEARER}`],
    [
      'Invoke-Sqlcmd -Password',
      `Invoke-Sqlcmd -ServerInstance db -Username sa -Password ${V}`,
      `Invoke-Sqlcmd -ServerInstance db -Username sa -Password ${PW}`,
    ],
    [
      'New-LocalUser -Password',
      `New-LocalUser bob -Password ${V}`,
      `New-LocalUser bob -Password ${PW}`,
    ],
    [
      'Publish-Module -NuGetApiKey',
      `Publish-Module -Name x -NuGetApiKey ${V}`,
      `Publish-Module -Name x -NuGetApiKey ${PW}`,
    ],
    ['java -password', `java -jar tool.jar -password ${V}`, `java -jar tool.jar -password ${PW}`],
  ]);
});

describe('names that only end the same way, and code, stay', () => {
  everyForm([
    ['compat', 'compat: true, compat=legacy', 'compat: true, compat=legacy'],
    ['a call', 'pw = getpass()', 'pw = getpass()'],
    ['cpw and npw', 'cpw: 12, npw=3', 'cpw: 12, npw=3'],
    ['mypat', `mypat: ${V}`, `mypat: ${V}`],
    ['pathPattern', 'pathPattern: foo', 'pathPattern: foo'],
    ['required', 'PW: required', 'PW: required'],
    ['the scheme alone', 'Authorization: ApiKey', 'Authorization: ApiKey'],
    ['a parameter in prose', 'use the -Password flag', 'use the -Password flag'],
    ['a reference', 'Connect-X -AccessToken $tok', 'Connect-X -AccessToken $tok'],
    [
      'a prompt',
      'Get-Thing -Password (Read-Host -AsSecureString)',
      'Get-Thing -Password (Read-Host -AsSecureString)',
    ],
    ['a file option', 'x -password-file f', 'x -password-file f'],
    // A PowerShell cmdlet is code: the quoted value after it is the secret.
    [
      'ConvertTo-SecureString',
      '$pw = ConvertTo-SecureString "S3cretPw" -AsPlainText -Force',
      `$pw = ConvertTo-SecureString "${PW}" -AsPlainText -Force`,
    ],
    ['Read-Host', '$pass = Read-Host -AsSecureString', '$pass = Read-Host -AsSecureString'],
    ['Get-Credential', '$password = Get-Credential', '$password = Get-Credential'],
  ]);
});
