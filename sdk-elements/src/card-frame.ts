/** Entry of dist/card-frame.js: the card frame page (card-frame.html) runs sdk-core's card frame. */
import { startCardFrame } from '@svc/sdk-core/frame';

startCardFrame(window);
