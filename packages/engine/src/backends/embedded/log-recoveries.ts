// What the embedded log repaired when it opened (Log#recoveryEvents: a torn tail cut, an index
// rebuilt, an interrupted segment swap finished, a leftover file removed, a damaged partition
// refused) as the engine's loud
// recoveries: logged at WARN once, and listed in every application's status (app.status'
// `recoveries`) for as long as the backend is open.
import type { RecoveryEvent } from '@streamwright/log';
import type { Recovery } from '../../backend-spi.js';

export function recoveryOf(event: RecoveryEvent, at: number): Recovery {
  const where = event.topic !== undefined ? `${event.topic}-${event.partition ?? 0}` : event.file;
  const common = {
    at,
    ...(event.topic !== undefined ? { topic: event.topic, partition: event.partition ?? 0 } : {}),
    file: event.file,
  };
  if (event.kind === 'truncated-torn-tail')
    return {
      ...common,
      kind: 'log-truncated',
      ...(event.offset !== undefined ? { fromOffset: event.offset } : {}),
      ...(event.bytes !== undefined ? { bytes: event.bytes } : {}),
      message: `the log of ${where} ended in a damaged batch (${event.detail ?? 'torn write'}): ${event.bytes ?? '?'} bytes cut at file position ${event.position ?? '?'}${event.offset !== undefined ? `, from offset ${event.offset} on` : ''} (${event.file})`,
    };
  if (event.kind === 'refused-partition')
    return {
      ...common,
      kind: 'partition-refused',
      ...(event.offset !== undefined ? { fromOffset: event.offset } : {}),
      // The log's error: the partition, file, position, offset and the repair command.
      message: event.detail ?? `the log of ${where} is damaged and was refused (${event.file})`,
    };
  const what =
    event.kind === 'rebuilt-index'
      ? `its offset index was rebuilt (${event.detail ?? 'damaged'})`
      : event.kind === 'rebuilt-time-index'
        ? 'its time index was rebuilt'
        : event.kind === 'completed-swap'
          ? 'an interrupted segment swap (compaction) was completed'
          : 'a leftover file was removed';
  return {
    ...common,
    kind: 'log-repaired',
    message: `the log of ${where}: ${what} (${event.file})`,
  };
}
