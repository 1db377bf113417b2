import { countingRedactor } from '../../test/redaction/every-form';

/**
 * Review r16 M3: name/value list items whose name is a secret's, in the spellings that were
 * served clear (a blank or comment line between, a comment after the name, a block scalar, the
 * value first, flow style, CloudFormation's ParameterKey/ParameterValue, ECS's Name/Value,
 * Terraform's HCL), and the false positives it stopped (a toggle, a secretKeyRef's name). Each
 * case in every form a text is stored in. Values are made up.
 */

const { everyForm } = countingRedactor();
const PW = '[REDACTED:password]';
const V = 'Vq76gijzA6i8X7og';

describe('env list spellings (M3)', () => {
  everyForm([
    [
      'a blank line between',
      `- name: DB_PASSWORD\n\n  value: ${V}`,
      `- name: DB_PASSWORD\n\n  value: ${PW}`,
    ],
    [
      'a comment line between',
      `- name: DB_PASSWORD\n  # the db\n  value: ${V}`,
      `- name: DB_PASSWORD\n  # the db\n  value: ${PW}`,
    ],
    [
      'a comment after the name',
      `- name: DB_PASSWORD # the db\n  value: ${V}`,
      `- name: DB_PASSWORD # the db\n  value: ${PW}`,
    ],
    [
      'a block scalar',
      `- name: DB_PASSWORD\n  value: >-\n    ${V}`,
      `- name: DB_PASSWORD\n  value: >-\n    ${PW}`,
    ],
    [
      'the value first',
      `- value: ${V}\n  name: DB_PASSWORD`,
      `- value: ${PW}\n  name: DB_PASSWORD`,
    ],
    ['flow style', `- {name: DB_PASSWORD, value: ${V}}`, `- {name: DB_PASSWORD, value: ${PW}}`],
    [
      'CloudFormation YAML',
      `- ParameterKey: DbPassword\n  ParameterValue: ${V}`,
      `- ParameterKey: DbPassword\n  ParameterValue: ${PW}`,
    ],
    [
      'CloudFormation JSON',
      `[{"ParameterKey": "DbPassword", "ParameterValue": "${V}"}]`,
      `[{"ParameterKey": "DbPassword", "ParameterValue": "${PW}"}]`,
    ],
    [
      'capitalised YAML',
      `- Name: DB_PASSWORD\n  Value: ${V}`,
      `- Name: DB_PASSWORD\n  Value: ${PW}`,
    ],
    [
      'ECS JSON',
      `{"environment": [{"Name": "DB_PASSWORD", "Value": "${V}"}]}`,
      `{"environment": [{"Name": "DB_PASSWORD", "Value": "${PW}"}]}`,
    ],
    [
      'HCL',
      `env {\n  name = "DB_PASSWORD"\n  value = "${V}"\n}`,
      `env {\n  name = "DB_PASSWORD"\n  value = "${PW}"\n}`,
    ],
    [
      'a secret after a reference-like name',
      `- name: DB_PASSWORD_SECRET\n  value: Zq7secretX9`,
      `- name: DB_PASSWORD_SECRET\n  value: ${PW}`,
    ],
    [
      'a lower-case client secret',
      `- name: CLIENT_SECRET\n  value: abcdefghijklmnop`,
      `- name: CLIENT_SECRET\n  value: ${PW}`,
    ],
  ]);
});

describe('env list values that are no secrets (M3 false positives)', () => {
  everyForm([
    [
      'a toggle',
      '- name: PASSWORD_AUTH\n  value: disabled',
      '- name: PASSWORD_AUTH\n  value: disabled',
    ],
    [
      "a secretKeyRef's name",
      '- name: DB_PASSWORD_SECRET\n  value: db-creds',
      '- name: DB_PASSWORD_SECRET\n  value: db-creds',
    ],
    [
      'a minimum length',
      '- name: PASSWORD_MIN_LENGTH\n  value: "12"',
      '- name: PASSWORD_MIN_LENGTH\n  value: "12"',
    ],
    [
      'a file',
      '- name: DB_PASSWORD_FILE\n  value: /run/secrets/db',
      '- name: DB_PASSWORD_FILE\n  value: /run/secrets/db',
    ],
    [
      'a policy',
      '- name: PASSWORD_POLICY\n  value: strict',
      '- name: PASSWORD_POLICY\n  value: strict',
    ],
    ['a value alone', `value: ${V}`, `value: ${V}`],
  ]);
});
