/**
 * Peer-to-peer load sharing (seed 002, SPEC.md §7): {@link org.loadlab.node.sharing.PeerNode}
 * is a node with no balancer in front — an FCFS queue plus a load-sharing agent that polls
 * peers by message and transfers tasks — running one of the
 * {@link org.loadlab.node.sharing.SharingProtocol}s with
 * {@link org.loadlab.node.sharing.SharingSettings}. Pure cores: the simulation engine and the
 * Pekko shell run them unchanged. Protocol message tables: docs/load-sharing.md.
 */
package org.loadlab.node.sharing;
