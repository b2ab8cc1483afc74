/** The loader's end of the postMessage channel to its widget page (sdk-core's channel, with the iframe SDK's schemas). */
import type { LoaderToWidgetMessage, WidgetToLoaderMessage } from '@svc/protocol';
import { IFRAME_MESSAGE_SOURCES, WidgetToLoaderMessageWire } from '@svc/protocol/light';
import { postMessageChannel, type ChannelOptions, type PostMessageChannel } from '@svc/sdk-core/shared';

export type LoaderChannel = PostMessageChannel<WidgetToLoaderMessage, LoaderToWidgetMessage>;

export function loaderEnd(self: Window, options: ChannelOptions<WidgetToLoaderMessage>): LoaderChannel {
  return postMessageChannel<WidgetToLoaderMessage, LoaderToWidgetMessage>(self, options, {
    wire: WidgetToLoaderMessageWire,
    source: IFRAME_MESSAGE_SOURCES.loader,
  });
}
