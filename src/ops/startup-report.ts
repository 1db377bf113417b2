import type { StoreSource } from '../config/brain-source';
import type { AppConfig } from '../config/config';

export interface ReportLine {
  level: 'log' | 'warn';
  message: string;
}

/**
 * What an operator must know before the first request: what is served, who may ask, whether
 * secrets are masked, and which settings look like mistakes.
 */
export function startupReport(config: AppConfig, source: StoreSource): ReportLine[] {
  const lines: ReportLine[] = [];
  if (source.isExample) {
    lines.push({
      level: 'warn',
      message:
        `Serving the EXAMPLE brain home ${source.geminiHome}: no brain root exists under the ` +
        `default GEMINI_HOME=${config.geminiHome}. Set GEMINI_HOME to a folder holding ` +
        '<flavor>/brain/ to serve your own sessions.',
    });
  }
  const roots = source.roots.map((r) => `${r.path} (${r.flavor})`).join(', ');
  const n = source.roots.length;
  lines.push({ level: 'log', message: `Serving ${n} brain root${n === 1 ? '' : 's'}: ${roots}` });
  const keys = config.apiKeys;
  if (keys.length > 0) {
    lines.push({
      level: 'log',
      message: `API keys: ${keys.length} loaded; every request needs one`,
    });
  } else {
    lines.push({
      level: 'warn',
      message: `API keys: none; anonymous access is ON for anyone who can reach ${config.host}:${config.port}`,
    });
  }
  lines.push(
    config.redact
      ? { level: 'log', message: 'Redaction: ON (secrets are masked in every answer)' }
      : { level: 'warn', message: 'Redaction: OFF (REDACT=off): secrets are served unmasked' },
  );
  const flavors = new Set(source.roots.map((r) => r.flavor));
  for (const key of keys) {
    const missing = [...(key.flavors ?? [])].filter((f) => !flavors.has(f));
    if (missing.length > 0) {
      lines.push({
        level: 'warn',
        message: `API key "${key.name}" is scoped to ${missing.join(', ')}, which no served root has: it sees nothing there`,
      });
    }
  }
  for (const message of config.nameWarnings) lines.push({ level: 'warn', message });
  if (config.allowedHosts.any) {
    lines.push({ level: 'warn', message: 'ALLOWED_HOSTS=*: the Host header is not checked' });
  }
  return lines;
}
