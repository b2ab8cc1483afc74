/**
 * What the appearance-check lazy script hands over (lazy-look.ts): the appearance checker and the measuring of its
 * result where it is applied. One object, so that a page loads both at once.
 */
import { checkAppearance } from '../shared/appearance';
import { applyReadable } from './readable-look';

export const APPEARANCE_CHECK = { checkAppearance, applyReadable };
export type AppearanceCheck = typeof APPEARANCE_CHECK;
