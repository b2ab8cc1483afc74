import { anchorId, escapeHtml } from './html';
import { CONNECTOR_PROFILES } from '../../processor/connectors';
import { CAPABILITY_NAMES } from '../../processor/processor-errors';
import type { ProcessorCapabilities, ProcessorKind } from '../../processor/processor';

const KINDS = Object.keys(CONNECTOR_PROFILES) as ProcessorKind[];

/** `/docs`: what each connector can do; an operation its processor cannot do answers 409 `processor_unsupported`. */
export function processorCapabilitySection(): string {
  const capabilities = Object.keys(CAPABILITY_NAMES) as (keyof ProcessorCapabilities)[];
  const head = KINDS.map((kind) => `<th scope="col">${escapeHtml(CONNECTOR_PROFILES[kind].name)}</th>`).join('');
  const rows = capabilities.map(
    (capability) =>
      `<tr><th scope="row">${escapeHtml(CAPABILITY_NAMES[capability])} <code>${capability}</code></th>` +
      KINDS.map((kind) => `<td>${CONNECTOR_PROFILES[kind].capabilities[capability] ? 'yes' : 'no'}</td>`).join('') +
      '</tr>',
  );
  return [
    '<section aria-labelledby="processors">',
    '<h2 id="processors">Processors and what they can do</h2>',
    "<p>Each merchant's payments go to one processor account. An operation that processor cannot do is refused before anything moves, " +
      '409 <code>processor_unsupported</code> naming the processor and the capability. A processor that captures once (no several partial captures) ' +
      'captures a partial amount and gives the rest of the hold back: the authorization ends closed (9); a second capture asked meanwhile is refused.</p>',
    '<div class="table-wrap"><table><caption>Capabilities per processor</caption>',
    `<thead><tr><th scope="col">Capability</th>${head}</tr></thead>`,
    `<tbody>${rows.join('\n')}</tbody></table></div>`,
    '</section>',
  ].join('\n');
}

/** `/docs/errors`: how each connector's own decline codes read as the service's (the attempt keeps the processor's as `processorCode`). */
export function processorDeclineSection(): string {
  const rows = KINDS.flatMap((kind) =>
    Object.entries(CONNECTOR_PROFILES[kind].declines).map(
      ([own, code]) =>
        `<tr><td>${escapeHtml(CONNECTOR_PROFILES[kind].name)}</td><td><code>${escapeHtml(own)}</code></td><td><a href="#${anchorId(code)}"><code>${code}</code></a></td></tr>`,
    ),
  );
  return [
    '<h2 id="processor-declines">Declines per processor</h2>',
    "<p>A processor's own decline code becomes one of the service's; any code not listed is <code>card_declined</code>. The processor's code is kept beside it as <code>processorCode</code>.</p>",
    '<div class="table-wrap"><table><caption>Processor decline codes</caption>',
    '<thead><tr><th scope="col">Processor</th><th scope="col">Its code</th><th scope="col">Service code</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table></div>`,
  ].join('\n');
}
