/** The widget page's end of the postMessage channel to the loader in the merchant page (its parent). */
import type { LoaderToWidgetMessage, WidgetToLoaderMessage } from '@svc/protocol';
import { IFRAME_MESSAGE_SOURCES, LoaderToWidgetMessageWire, parseWith } from '@svc/protocol/light';
import { PostMessageChannel, type ChannelOptions } from '@svc/sdk-core/shared';

export type WidgetChannel = PostMessageChannel<LoaderToWidgetMessage, WidgetToLoaderMessage>;

export function widgetEnd(self: Window, options: ChannelOptions<LoaderToWidgetMessage>): WidgetChannel {
  return new PostMessageChannel<LoaderToWidgetMessage, WidgetToLoaderMessage>(self, options, {
    accept: (data) => {
      const parsed = parseWith(LoaderToWidgetMessageWire, data);
      return parsed.ok ? parsed.value : null;
    },
    source: IFRAME_MESSAGE_SOURCES.widget,
  });
}
