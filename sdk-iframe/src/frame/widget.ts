/** Entry of dist/widget.js, the script of widget.html. */
import { startWidget } from './widget-app';

startWidget(window);
