/**
 * Mirror of the iframe SDK's loader → widget messages (`../iframe-messages.ts`), which the widget page parses; apart
 * from the widget's messages (./widget-messages.ts), which the loader parses, so that each bundle holds only its own.
 * light.test.ts checks it against its zod original.
 */
import { IFRAME_MESSAGE_SOURCES, SDK_CALLBACK_NAMES, SDK_PAGE_ELEMENTS } from '../constants';
import { InstanceId } from './ids';
import { boolean, literal, object, oneOf, string, union, unknown } from './schema';

const loader = literal(IFRAME_MESSAGE_SOURCES.loader);
const instanceId = InstanceId;
const strict = { strict: true };

export const LoaderToWidgetMessageWire = union('type', [
  object({ source: loader, instanceId, type: literal('config'), options: unknown, replay: boolean }, strict),
  object({ source: loader, instanceId, type: literal('update'), options: unknown }, strict),
  object({ source: loader, instanceId, type: literal('init'), container: string() }, strict),
  object(
    { source: loader, instanceId, type: literal('pay'), requestId: string({ min: 1, max: 64 }), options: unknown, button: boolean, callback: boolean },
    strict,
  ),
  object({ source: loader, instanceId, type: literal('notAFunction'), method: oneOf(SDK_CALLBACK_NAMES) }, strict),
  object({ source: loader, instanceId, type: literal('notFound'), element: oneOf(SDK_PAGE_ELEMENTS) }, strict),
  object({ source: loader, instanceId, type: literal('fault'), method: string(), detail: string() }, strict),
]);
