/*
 * Token formats from gitleaks' default rules: config/gitleaks.toml of the gitleaks project
 * (gitleaks/gitleaks on GitHub), commit b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b
 * (v8.30.0-27). Each row is [rule id, our kind, regex exactly as published]; ./rules turns
 * the Go (RE2) syntax into a JavaScript detector. Only rules that start with a literal
 * prefix are taken (the prefilter anchors on it). To update: copy the regex of the same id.
 *
 * MIT License
 *
 * Copyright (c) 2019 Zachary Rice
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 */

export const GITLEAKS_RULES: readonly (readonly [id: string, kind: string, regex: string])[] = [
  ['gitlab-pat', 'gitlab-token', String.raw`glpat-[\w-]{20}`],
  [
    'gitlab-pat-routable',
    'gitlab-token',
    String.raw`\bglpat-[0-9a-zA-Z_-]{27,300}\.[0-9a-z]{2}[0-9a-z]{7}\b`,
  ],
  ['gitlab-ptt', 'gitlab-token', String.raw`glptt-[0-9a-f]{40}`],
  ['gitlab-deploy-token', 'gitlab-token', String.raw`gldt-[0-9a-zA-Z_\-]{20}`],
  ['gitlab-runner-authentication-token', 'gitlab-token', String.raw`glrt-[0-9a-zA-Z_\-]{20}`],
  ['gitlab-feed-token', 'gitlab-token', String.raw`glft-[0-9a-zA-Z_\-]{20}`],
  ['gitlab-oauth-app-secret', 'gitlab-token', String.raw`gloas-[0-9a-zA-Z_\-]{64}`],
  ['gitlab-scim-token', 'gitlab-token', String.raw`glsoat-[0-9a-zA-Z_\-]{20}`],
  [
    'huggingface-access-token',
    'huggingface-token',
    String.raw`\b(hf_(?i:[a-z]{34}))(?:[\x60'"\s;]|\\[nr]|$)`,
  ],
  [
    'huggingface-organization-api-token',
    'huggingface-token',
    String.raw`\b(api_org_(?i:[a-z]{34}))(?:[\x60'"\s;]|\\[nr]|$)`,
  ],
  ['npm-access-token', 'npm-token', String.raw`(?i)\b(npm_[a-z0-9]{36})(?:[\x60'"\s;]|\\[nr]|$)`],
  ['pypi-upload-token', 'pypi-token', String.raw`pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}`],
  [
    'slack-webhook-url',
    'slack-webhook',
    String.raw`(?:https?://)?hooks.slack.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}`,
  ],
  [
    'digitalocean-pat',
    'digitalocean-token',
    String.raw`\b(dop_v1_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)`,
  ],
  [
    'digitalocean-access-token',
    'digitalocean-token',
    String.raw`\b(doo_v1_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)`,
  ],
  [
    'digitalocean-refresh-token',
    'digitalocean-token',
    String.raw`(?i)\b(dor_v1_[a-f0-9]{64})(?:[\x60'"\s;]|\\[nr]|$)`,
  ],
  ['shopify-access-token', 'shopify-token', String.raw`shpat_[a-fA-F0-9]{32}`],
  ['shopify-shared-secret', 'shopify-token', String.raw`shpss_[a-fA-F0-9]{32}`],
  [
    'sendgrid-api-token',
    'sendgrid-key',
    String.raw`\b(SG\.(?i)[a-z0-9=_\-\.]{66})(?:[\x60'"\s;]|\\[nr]|$)`,
  ],
  [
    'age-secret-key',
    'age-secret-key',
    String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`,
  ],
  [
    'postman-api-token',
    'postman-key',
    String.raw`\b(PMAK-(?i)[a-f0-9]{24}\-[a-f0-9]{34})(?:[\x60'"\s;]|\\[nr]|$)`,
  ],
  ['doppler-api-token', 'doppler-token', String.raw`dp\.pt\.(?i)[a-z0-9]{43}`],
  ['linear-api-key', 'linear-key', String.raw`lin_api_(?i)[a-z0-9]{40}`],
  [
    'grafana-service-account-token',
    'grafana-token',
    String.raw`(?i)\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?:[\x60'"\s;]|\\[nr]|$)`,
  ],
];
