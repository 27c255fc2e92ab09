package dev.esgen.runtime.repository;

import java.util.Objects;

/**
 * An aggregate's state together with where its stream stands: the version to pass as the expected
 * version of the next {@code append}, and the seq_nr of the last event.
 *
 * <pre>{@code
 * Versioned<BankAccount> current = accounts.findVersioned(id).orElseThrow();
 * accounts.append(id, current.version(), new MoneyDeposited(500));
 * }</pre>
 *
 * @param state the aggregate after every event up to {@code seqNr}
 * @param version the stream's optimistic-lock version: 1 after creation, +1 per append (not per event)
 * @param seqNr the seq_nr of the stream's last event, counting events from 1
 * @param <A> the aggregate type
 */
public record Versioned<A>(A state, long version, long seqNr) {

  public Versioned {
    Objects.requireNonNull(state, "state");
  }
}
