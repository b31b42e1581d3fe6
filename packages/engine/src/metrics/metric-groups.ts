// Plain counters on the hot path: a processor bumps a field; names, rates and averages are
// computed only when a snapshot is taken.

export class ThreadMetrics {
  processTotal = 0;
  commitTotal = 0;
  pollTotal = 0;
  punctuateTotal = 0;
}

export class TaskMetrics {
  processTotal = 0;
  droppedRecordsTotal = 0;
  recordLatenessMax = 0;
  recordLatenessSum = 0;
  recordLatenessCount = 0;
  enforcedProcessingTotal = 0;
  restoreTotal = 0;
  restoreRemainingRecordsTotal = 0;

  recordLateness(ms: number): void {
    this.recordLatenessSum += ms;
    this.recordLatenessCount++;
    if (ms > this.recordLatenessMax) this.recordLatenessMax = ms;
  }
}

export class NodeMetrics {
  processTotal = 0;
  recordsConsumedTotal = 0;
  recordsProducedTotal = 0;
  e2eCount = 0;
  e2eSum = 0;
  e2eMin = Infinity;
  e2eMax = -Infinity;

  recordE2eLatency(ms: number): void {
    this.e2eCount++;
    this.e2eSum += ms;
    if (ms < this.e2eMin) this.e2eMin = ms;
    if (ms > this.e2eMax) this.e2eMax = ms;
  }
}
