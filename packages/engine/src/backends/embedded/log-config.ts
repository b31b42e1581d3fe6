// Topic configs the embedded log honours, with Kafka's keys and defaults, except for segment
// sizes: the embedded log keeps every record in memory as well, so segments are small (1 MiB) and,
// when a retention limit is set, at most a quarter of it, so retention can actually bite.

export interface LogConfig {
  retentionMs: number;
  retentionBytes: number;
  segmentBytes: number;
  segmentMs: number;
  compact: boolean;
  delete: boolean;
}

const DAY = 24 * 60 * 60 * 1000;
export const DEFAULT_SEGMENT_BYTES = 1024 * 1024;

function num(config: Record<string, string>, key: string, fallback: number): number {
  const raw = config[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) ? n : fallback;
}

export function logConfigOf(config: Record<string, string>): LogConfig {
  const policy = (config['cleanup.policy'] ?? 'delete').split(',').map((p) => p.trim());
  const retentionMs = num(config, 'retention.ms', 7 * DAY);
  const retentionBytes = num(config, 'retention.bytes', -1);
  let segmentBytes = num(config, 'segment.bytes', DEFAULT_SEGMENT_BYTES);
  let segmentMs = num(config, 'segment.ms', 7 * DAY);
  if (retentionBytes > 0) segmentBytes = Math.min(segmentBytes, Math.max(1024, Math.floor(retentionBytes / 4)));
  if (retentionMs > 0) segmentMs = Math.min(segmentMs, Math.max(100, Math.floor(retentionMs / 4)));
  return {
    retentionMs,
    retentionBytes,
    segmentBytes: Math.max(1024, segmentBytes),
    segmentMs,
    compact: policy.includes('compact'),
    delete: policy.includes('delete'),
  };
}
