// Build an event index from EVTX files once, then search it twice (TypeScript; Node 24 runs it
// as is). No Engine and no data directory: the index is a temporary file, encrypted, removed
// by close() (give `path` to keep it instead).
//   node build-and-search.ts TEXT LOG.evtx…
import { buildIndex, search } from 'threat-analysis-engine/search';

const [text, ...files] = process.argv.slice(2);
if (text === undefined || files.length === 0) {
  console.error('usage: node build-and-search.ts TEXT LOG.evtx…');
  process.exit(2);
}

const index = await buildIndex({ files, sigma: 'community' });
try {
  console.error(`${index.events} events indexed from ${files.length} files`);

  // 1. Free text, case-insensitive and partial, over every column and event-data value.
  const found = await search(index, { search: text, browse_events: true, show: 100 });
  for (const [cells, data] of found.insights[0]!.IndexTable.data)
    console.log(JSON.stringify({ search: text, eventId: cells[0], time: cells[2], data }));

  // 2. Filters: failed network logons, by event id and an event-data field.
  const failed = await search(index, {
    search: '',
    browse_events: true,
    show: 100,
    filter: [
      { field: 'event_id', operator: 'equals', value: '4625' },
      { field: 'details.LogonType', operator: 'equals', value: '3' },
    ],
  });
  const rows = failed.insights[0]!.IndexTable.data;
  console.log(
    JSON.stringify({
      failedNetworkLogons: rows.length,
      users: [...new Set(rows.map(([, d]) => d.TargetUserName))],
    }),
  );
} finally {
  index.close();
}
