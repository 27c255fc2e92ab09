package dev.esgen.bench.tip;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Draws the tip write-cost curves of the small event as a PNG: billed write units per append, averaged
 * over each stream's appends so far, against the stream's length, one line per setting. Java2D only, like
 * the scale chart.
 */
public final class TipWriteChart {

  private static final int WIDTH = 1120;
  private static final int HEIGHT = 520;
  private static final int LEFT = 80;
  private static final int RIGHT = 300;
  private static final int TOP = 56;
  private static final int BOTTOM = 70;
  private static final Color[] COLORS = {Color.BLACK, new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
      new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};

  private TipWriteChart() {}

  public static void write(List<TipWriteCost.Curve> curves, Path png) throws IOException {
    List<TipWriteCost.Curve> small = curves.stream().filter(c -> c.body() == TipWriteCost.Body.SMALL).toList();
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, WIDTH, HEIGHT);
      int maxX = small.stream().mapToInt(c -> c.appends().get(c.appends().size() - 1).length()).max().orElse(1);
      double maxY = 1;
      for (TipWriteCost.Curve c : small) {
        for (TipWriteCost.Append a : c.appends()) {
          maxY = Math.max(maxY, c.billedMeanUpTo(a.length()));
        }
      }
      maxY = Math.ceil(maxY / 2) * 2;
      int plotLeft = LEFT;
      int plotRight = WIDTH - RIGHT;
      int plotTop = TOP;
      int plotBottom = HEIGHT - BOTTOM;
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.setColor(Color.BLACK);
      String title = "Write units per append (billed, mean of the stream's appends so far), small events";
      g.drawString(title, (plotLeft + plotRight) / 2 - g.getFontMetrics().stringWidth(title) / 2, 30);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      FontMetrics m = g.getFontMetrics();
      int xStep = maxX > 100 ? 50 : 10;
      for (int x = 0; x <= maxX; x += xStep) {
        int px = scale(x, 0, maxX, plotLeft, plotRight);
        g.setColor(new Color(0xdddddd));
        g.drawLine(px, plotTop, px, plotBottom);
        g.setColor(Color.BLACK);
        String label = String.valueOf(x);
        g.drawString(label, px - m.stringWidth(label) / 2, plotBottom + 18);
      }
      for (int y = 0; y <= maxY; y += 2) {
        int py = scale(y, maxY, 0, plotTop, plotBottom);
        g.setColor(new Color(0xdddddd));
        g.drawLine(plotLeft, py, plotRight, py);
        g.setColor(Color.BLACK);
        String label = String.valueOf(y);
        g.drawString(label, plotLeft - 8 - m.stringWidth(label), py + m.getAscent() / 2 - 1);
      }
      g.drawRect(plotLeft, plotTop, plotRight - plotLeft, plotBottom - plotTop);
      String xLabel = "events in the stream";
      g.drawString(xLabel, (plotLeft + plotRight) / 2 - m.stringWidth(xLabel) / 2, plotBottom + 40);
      Graphics2D rotated = (Graphics2D) g.create();
      rotated.rotate(-Math.PI / 2);
      String yLabel = "WCU per append";
      rotated.drawString(yLabel, -((plotTop + plotBottom) / 2) - m.stringWidth(yLabel) / 2, 24);
      rotated.dispose();
      for (int i = 0; i < small.size(); i++) {
        TipWriteCost.Curve c = small.get(i);
        g.setColor(COLORS[i % COLORS.length]);
        g.setStroke(new BasicStroke(c.setup().isTipDefault() ? 4f : 2f));
        int[] xs = new int[c.appends().size()];
        int[] ys = new int[xs.length];
        for (int k = 0; k < xs.length; k++) {
          TipWriteCost.Append a = c.appends().get(k);
          xs[k] = scale(a.length(), 0, maxX, plotLeft, plotRight);
          ys[k] = scale(c.billedMeanUpTo(a.length()), maxY, 0, plotTop, plotBottom);
        }
        g.drawPolyline(xs, ys, xs.length);
        int legendY = plotTop + 12 + i * 22;
        g.drawLine(plotRight + 20, legendY, plotRight + 48, legendY);
        g.setColor(Color.BLACK);
        g.drawString(c.setup().name() + (c.setup().isTipDefault() ? " (default)" : ""), plotRight + 56, legendY + 5);
      }
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", png.toFile());
  }

  private static int scale(double v, double from, double to, int pixelFrom, int pixelTo) {
    return (int) Math.round(pixelFrom + (v - from) / (to - from) * (pixelTo - pixelFrom));
  }
}
