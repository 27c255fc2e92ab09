package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.runtime.config.StoreConfig;

/**
 * Changes the {@link StoreConfig} the auto-configuration builds from the {@code esgen.*} properties,
 * for settings that are code rather than properties: the clock, the JSON mapper. Every customizer bean
 * is applied, in {@link org.springframework.core.annotation.Order} order.
 *
 * <pre>{@code
 * @Bean
 * StoreConfigCustomizer fixedClock(Clock clock) {
 *   return config -> config.withClock(clock);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface StoreConfigCustomizer {

  /** {@code config} with this customizer's changes; {@link StoreConfig} is immutable, so return the new one. */
  StoreConfig customize(StoreConfig config);
}
