// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The smallest text that may carry an answer on a projector: the tour caption's answer in presentation
// mode (its window font, 1.45 × the desktop's, × 1.15) is about 20 px; an answer on the page the tour
// points at must read at least as large from the back of the room.
inline constexpr int kMinimumAnswerPixels = 20;
