package dev.esgen.testkit.member;

import java.util.UUID;

/** A club member's id: a string, so that tests can choose ids that sort in telling ways. */
public record MemberId(String value) {

  public static MemberId random() {
    return new MemberId(UUID.randomUUID().toString());
  }
}
