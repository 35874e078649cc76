import { useState } from 'react';
import {
  frameInUse,
  type KnownOfCandidate,
  type LoadedReplyFrame,
  loadReplyFrame,
  type ReplyFrame,
  sameFrame,
  trimmedFrame,
} from './reply-frame.ts';

/**
 * The greeting and sign-off around the reply, as the fields hold them: put around it as they are typed,
 * saved or not, once the frame's rules let them through (frameInUse), so that what the agent sees in the
 * fields and the reply is what Copy copies. While the fields hold what is not around the reply (refused),
 * Copy is held and says why (`held`), rather than copying the reply without it.
 */
export function useReplyFrame(
  user: string | undefined,
  known: KnownOfCandidate,
  /** Puts `to` in place of `from` in the agent's edited texts (reframed). */
  reframeDrafts: (from: ReplyFrame, to: ReplyFrame) => void,
) {
  // As loaded (one removed for what it held says so in the fields), then as typed.
  const [loaded] = useState<LoadedReplyFrame>(() => loadReplyFrame(user));
  const [frame, setFrame] = useState<ReplyFrame>(loaded);
  const [typed, setTyped] = useState<ReplyFrame>(loaded);
  const [pressed, setPressed] = useState(false);
  const unused = !sameFrame(trimmedFrame(typed), trimmedFrame(frame));
  const onTyped = (next: ReplyFrame) => {
    setTyped(next);
    const to = frameInUse(frame, next, known, user);
    // Around the reply now: Copy is no longer held, and a later refusal is said beside it only once pressed again.
    if (sameFrame(to, trimmedFrame(next))) setPressed(false);
    if (sameFrame(to, frame)) return;
    reframeDrafts(frame, to);
    setFrame(to);
  };
  /** Copy pressed: whether it may copy; not while the fields hold a frame that is not around the reply. */
  const mayCopy = () => {
    setPressed(unused);
    return !unused;
  };
  return { loaded, frame, onTyped, held: pressed && unused, mayCopy };
}
