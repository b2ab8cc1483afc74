/** The loader's end of the postMessage channel to its widget page (sdk-core's channel, with the iframe SDK's schemas). */
import type { LoaderToWidgetMessage, WidgetToLoaderMessage } from '@svc/protocol';
import { IFRAME_MESSAGE_SOURCES, parseWith, WidgetToLoaderMessageWire } from '@svc/protocol/light';
import { PostMessageChannel, type ChannelOptions } from '@svc/sdk-core/shared';

export type LoaderChannel = PostMessageChannel<WidgetToLoaderMessage, LoaderToWidgetMessage>;

export function loaderEnd(self: Window, options: ChannelOptions<WidgetToLoaderMessage>): LoaderChannel {
  return new PostMessageChannel<WidgetToLoaderMessage, LoaderToWidgetMessage>(self, options, {
    accept: (data) => {
      const parsed = parseWith(WidgetToLoaderMessageWire, data);
      return parsed.ok ? parsed.value : null;
    },
    source: IFRAME_MESSAGE_SOURCES.loader,
  });
}
