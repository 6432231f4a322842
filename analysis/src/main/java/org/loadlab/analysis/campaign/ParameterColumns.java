package org.loadlab.analysis.campaign;

import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;

/** The parameter columns of a CSV file: the union of the rows' keys, sorted, checked for clashes. */
final class ParameterColumns {

    private ParameterColumns() {
    }

    /**
     * @param parameters each row's parameters
     * @param fixedColumns the file's other column names
     * @param file file name for the error message
     * @return the sorted union of keys
     * @throws IllegalArgumentException if a key equals a fixed column name
     */
    static List<String> of(Collection<SortedMap<String, String>> parameters, List<String> fixedColumns, String file) {
        SortedSet<String> keys = new TreeSet<>();
        parameters.forEach(p -> keys.addAll(p.keySet()));
        for (String key : keys) {
            if (fixedColumns.contains(key)) {
                throw new IllegalArgumentException("parameters: key '" + key + "' clashes with a fixed "
                        + file + " column; rename the swept key");
            }
        }
        return List.copyOf(keys);
    }
}
