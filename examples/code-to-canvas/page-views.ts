// Code → canvas: a DSL program for `streamwright export`, which builds it and writes the topology
// JSON the designer imports. The default export is given a StreamsBuilder and describes the
// topology on it; the CLI builds it with the application.id `page-views` (the file's name). All
// logic is CEL, so every node stays editable in the designer.
//
//   page-views ─ filter(bots out) ─ selectKey(page) ─ join(pages table) ─▶ page-views-enriched
//                                        └─ groupByKey ─ 1-minute windows ─ count ─▶ views-per-minute
import {
  Consumed,
  Grouped,
  Joined,
  Materialized,
  Produced,
  Serdes,
  TimeWindows,
  WindowedSerdes,
  type StreamsBuilder,
} from '@streamwright/engine';

/** The window of the per-page counts: one minute, no grace. */
export const WINDOW_MS = 60_000;

export default function pageViews(builder: StreamsBuilder): void {
  const pages = builder.table(
    'pages',
    Consumed.with(Serdes.String(), Serdes.Json()),
    Materialized.as('pages-store'),
  );
  const views = builder
    .stream('page-views', Consumed.with(Serdes.String(), Serdes.Json()))
    .filter('!value.userAgent.contains("bot")')
    .selectKey('value.page');
  views
    .join(
      pages,
      '{"page": key, "title": right.title, "user": left.user}',
      Joined.with(Serdes.String(), Serdes.Json(), Serdes.Json()),
    )
    .to('page-views-enriched', Produced.with(Serdes.String(), Serdes.Json()));
  views
    .groupByKey(Grouped.with(Serdes.String(), Serdes.Json()))
    .windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_MS))
    .count(Materialized.as('views-per-minute-store'))
    .toStream()
    .to(
      'views-per-minute',
      Produced.with(
        WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), WINDOW_MS),
        Serdes.Long(),
      ),
    );
}
