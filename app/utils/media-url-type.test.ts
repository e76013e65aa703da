import { describe, expect, it } from "vitest";
import { suggestedPostType } from "./media-url-type";

const CASES: Array<[string, "video" | "podcast" | null, string[]]> = [
  [
    "calls YouTube, Vimeo and video files a Video",
    "video",
    [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://m.youtube.com/watch?v=abc",
      "https://youtu.be/dQw4w9WgXcQ",
      "https://www.youtube.com/shorts/abc123",
      "https://vimeo.com/76979871",
      "https://player.vimeo.com/video/76979871",
      "youtu.be/dQw4w9WgXcQ",
      "  https://YOUTUBE.com/watch?v=x  ",
      "https://example.com/clips/buck.MP4",
    ],
  ],
  [
    "calls podcast hosts and audio files a Podcast",
    "podcast",
    [
      "https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk",
      "https://open.spotify.com/show/2MAi0BvDc6GTFvKFPXnkCL?si=1",
      "https://podcasts.apple.com/us/podcast/the-hunting-public/id1234",
      "https://anchor.fm/deer-camp/episodes/Rut-Report-e1abc",
      "https://cdn.example.com/episodes/rut-report.mp3",
      "https://cdn.example.com/episodes/rut-report.m4a?download=1",
    ],
  ],
  [
    "suggests nothing for other links, music, lookalike hosts and text that is not a URL",
    null,
    [
      "",
      "   ",
      "https://www.outdoorlife.com/hunting/whitetail-rut-guide",
      "https://open.spotify.com/track/11dFghVXANMlKmJXsNCbNl",
      "https://notyoutube.com/watch?v=x",
      "https://youtube.com.evil.example/watch",
      "https://example.com/mp3-players",
      "ftp://example.com/show.mp3",
      "not a url at all",
    ],
  ],
];

describe("suggestedPostType", () => {
  it.each(CASES)("%s", (_, expected, urls) => {
    for (const url of urls) expect(suggestedPostType(url), url).toBe(expected);
  });
});
