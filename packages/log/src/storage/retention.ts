// Which old segments retention deletes, as Kafka's UnifiedLog.deleteOldSegments decides: whole
// segments only, always a prefix (the oldest first, stopping at the first one to keep), by
// retention.ms (the segment's largest timestamp is older than now - retention.ms), by
// retention.bytes (the log stays above the limit without it), and below the log start offset.

export interface SegmentInfo {
  baseOffset: number;
  nextOffset: number;
  size: number;
  maxTimestamp: number;
}

export interface RetentionInput {
  segments: readonly SegmentInfo[];
  deletePolicy: boolean;
  retentionMs: number;
  retentionBytes: number;
  logStartOffset: number;
  highWatermark: number;
  now: number;
}

/** The number of leading segments to delete; may include the active one (then roll first). */
export function segmentsToDelete(input: RetentionInput): number {
  const { segments } = input;
  // The active segment only counts when it is non-empty and wholly durable.
  const deletable = (i: number): boolean => {
    const s = segments[i]!;
    if (i < segments.length - 1) return true;
    return s.size > 0 && s.nextOffset <= input.highWatermark;
  };
  let count = 0;
  const prefix = (pred: (s: SegmentInfo, i: number) => boolean): void => {
    while (count < segments.length && deletable(count) && pred(segments[count]!, count)) count++;
  };
  if (input.deletePolicy && input.retentionMs >= 0 && input.retentionMs !== Infinity) {
    const cutoff = input.now - input.retentionMs;
    prefix((s) => s.maxTimestamp < cutoff);
  }
  if (input.deletePolicy && input.retentionBytes >= 0 && input.retentionBytes !== Infinity) {
    let total = segments.reduce((n, s) => n + s.size, 0);
    for (let i = 0; i < count; i++) total -= segments[i]!.size;
    prefix((s) => {
      if (total - s.size < input.retentionBytes) return false;
      total -= s.size;
      return true;
    });
  }
  prefix((_s, i) => {
    const next = segments[i + 1];
    return next !== undefined && next.baseOffset <= input.logStartOffset;
  });
  return count;
}
