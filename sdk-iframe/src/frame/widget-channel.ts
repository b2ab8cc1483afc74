/** The widget page's end of the postMessage channel to the loader in the merchant page (its parent). */
import type { LoaderToWidgetMessage, WidgetToLoaderMessage } from '@svc/protocol';
import { IFRAME_MESSAGE_SOURCES, LoaderToWidgetMessageWire } from '@svc/protocol/light';
import { postMessageChannel, type ChannelOptions, type PostMessageChannel } from '@svc/sdk-core/shared';

export type WidgetChannel = PostMessageChannel<LoaderToWidgetMessage, WidgetToLoaderMessage>;

export function widgetEnd(self: Window, options: ChannelOptions<LoaderToWidgetMessage>): WidgetChannel {
  return postMessageChannel<LoaderToWidgetMessage, WidgetToLoaderMessage>(self, options, {
    wire: LoaderToWidgetMessageWire,
    source: IFRAME_MESSAGE_SOURCES.widget,
  });
}
