/** Writes events with our EVTX writer, decodes them and runs the payload extractor over them. */
import type { EventDescription } from '../../fixtures/evtx-writer/index.js';
import { writeEvtx } from '../../fixtures/evtx-writer/index.js';
import { parseEvtx } from '../../src/parse/index.js';
import {
  createPayloadExtractor,
  type Payload,
  type PayloadDiagnostic,
  type PayloadLimits,
} from '../../src/payloads/index.js';

export async function payloadsOf(
  events: EventDescription[],
  limits: Partial<PayloadLimits> = {},
): Promise<{ payloads: Payload[]; diagnostics: readonly PayloadDiagnostic[] }> {
  const x = createPayloadExtractor({ limits });
  const payloads: Payload[] = [];
  for await (const r of parseEvtx(Buffer.from(writeEvtx(events))))
    payloads.push(...x.add(r.event!, 'gen.evtx'));
  payloads.push(...x.finish());
  return { payloads, diagnostics: x.diagnostics };
}

/** The payload whose text is `text`, or a failure listing what was found. */
export function withText(payloads: readonly Payload[], text: string): Payload {
  const p = payloads.find((q) => q.text === text);
  if (p === undefined)
    throw new Error(
      `no payload with that text; found: ${JSON.stringify(payloads.map((q) => q.text?.slice(0, 80)))}`,
    );
  return p;
}
