/** Entry of dist/card-frame.js. */
import { startCardFrame } from './card-frame-app';

startCardFrame(window);
